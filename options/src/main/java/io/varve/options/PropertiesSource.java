package io.varve.options;

import java.util.Properties;

/** Properties named by full keys (YCSB's {@code -p name=value}); errors show values as written. */
final class PropertiesSource implements OptionValues.Source {

  private final Properties properties;

  PropertiesSource(Properties properties) {
    this.properties = properties;
  }

  @Override
  public OptionValues.Found find(Option<?> option) {
    for (String key : option.keysToLookUp()) {
      String value = properties.getProperty(key);
      if (value != null && !value.isBlank()) {
        return new OptionValues.Found(key, value.trim());
      }
    }
    return null;
  }

  @Override
  public String shown(Object raw) {
    return String.valueOf(raw);
  }

  @Override
  public void checkStructure(Options options) {
    // flat: other components' properties share the namespace, so none is refused
  }
}
