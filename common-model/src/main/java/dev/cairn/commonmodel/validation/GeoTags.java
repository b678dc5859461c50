package dev.cairn.commonmodel.validation;

import java.util.regex.Pattern;

/** Cluster geo tags as k8gb allows them: 1 to 63 letters, digits or {@code -}. */
public final class GeoTags {

  private static final Pattern GEO_TAG = Pattern.compile("[A-Za-z0-9-]{1,63}");

  private GeoTags() {}

  /** True when {@code tag} is a geo tag. */
  public static boolean isValid(String tag) {
    return tag != null && GEO_TAG.matcher(tag).matches();
  }
}
