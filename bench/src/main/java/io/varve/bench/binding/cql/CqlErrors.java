package io.varve.bench.binding.cql;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import site.ycsb.Status;

/** Driver exceptions as YCSB statuses, one name per kind so results count errors by type. */
final class CqlErrors {
  private CqlErrors() {}

  static Status status(DriverException e) {
    String name;
    if (e instanceof ReadTimeoutException) {
      name = "READ_TIMEOUT";
    } else if (e instanceof WriteTimeoutException) {
      name = "WRITE_TIMEOUT";
    } else if (e instanceof UnavailableException) {
      name = "UNAVAILABLE";
    } else if (e instanceof OverloadedException) {
      name = "OVERLOADED";
    } else if (e instanceof DriverTimeoutException) {
      name = "CLIENT_TIMEOUT";
    } else if (e instanceof AllNodesFailedException) {
      name = "NO_HOST_AVAILABLE";
    } else {
      name = "ERROR";
    }
    return new Status(name, e.getMessage());
  }
}
