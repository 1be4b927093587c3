/**
 * The Java client of Varve: {@link io.varve.client.VarveClient} and what it hands out. The classes
 * of {@code io.varve.client.internal} are its implementation, not a contract.
 */
package io.varve.client;
