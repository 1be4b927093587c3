/**
 * Service level objectives of a namespace, shared by the services: the model ({@link
 * io.varve.core.slo.Slos}, per endpoint {@link io.varve.core.slo.LatencySlo}), its validation, and
 * the time budget a read derives from them ({@link io.varve.core.slo.ReadDeadline}). Pure Java.
 */
package io.varve.core.slo;
