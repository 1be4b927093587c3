package io.varve.server.admission;

import com.linecorp.armeria.server.ServiceRequestContext;
import io.netty.util.AttributeKey;
import io.varve.core.read.ResponseMemory;

/**
 * The response memory of one admitted request: what its response will hold is added to the permit
 * the request took at admission, from the same budget, and given back with it when the exchange
 * ends. A read asks before it fetches what it will return ({@link ResponseMemory}); one that does
 * not fit is refused RESOURCE_EXHAUSTED (HTTP 429), reason {@code response}. A response larger than
 * the whole budget is admitted as a large request body is ({@link ByteBudget}): never beside
 * another.
 *
 * <p>The {@link AdmissionControl#MIN_COST} every request pays at admission already covers a small
 * response: the first {@code MIN_COST} of response cost is not taken twice. Thread-safe.
 */
public final class ResponseAdmission implements ResponseMemory {

  private static final AttributeKey<ResponseMemory> KEY =
      AttributeKey.valueOf(ResponseAdmission.class, "RESPONSE_MEMORY");

  private final AdmissionControl control;
  private final ByteBudget budget;
  private final ByteBudget.Permit permit;
  private final AdmissionControl.Transport transport;
  private long prepaid = AdmissionControl.MIN_COST;

  private ResponseAdmission(
      AdmissionControl control,
      ByteBudget budget,
      ByteBudget.Permit permit,
      AdmissionControl.Transport transport) {
    this.control = control;
    this.budget = budget;
    this.permit = permit;
    this.transport = transport;
  }

  /**
   * Makes what the response of the request of {@code ctx} holds count in {@code permit}, taken from
   * {@code budget} at admission.
   */
  public static void attach(
      ServiceRequestContext ctx,
      AdmissionControl control,
      ByteBudget budget,
      ByteBudget.Permit permit,
      AdmissionControl.Transport transport) {
    ctx.setAttr(KEY, new ResponseAdmission(control, budget, permit, transport));
  }

  /**
   * The response memory of the request being served on this thread; {@link
   * ResponseMemory#UNBOUNDED} outside a request or for a request that passed no admission. Ask for
   * it where the request's context is current (a handler's first line), not in a later stage.
   */
  public static ResponseMemory current() {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    ResponseMemory memory = ctx == null ? null : ctx.attr(KEY);
    return memory == null ? ResponseMemory.UNBOUNDED : memory;
  }

  @Override
  public void hold(long bytes) {
    if (bytes <= 0) {
      return;
    }
    long cost = transport.responseCost(bytes);
    synchronized (this) {
      long free = Math.min(prepaid, cost);
      if (cost > free && !permit.tryAdd(cost - free)) {
        throw control.refuseResponse(budget, transport, bytes, cost);
      }
      prepaid -= free;
    }
  }
}
