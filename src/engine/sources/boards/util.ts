// Helpers the board providers share: JSON read without throwing, and a place written as the boards write it.

/** The JSON value of a provider's answer, or undefined when the text is not JSON (an HTML page, cut short). */
export function readJson(text: string): unknown {
  try {
    return JSON.parse(String(text).replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
}

/** "City, Country" (the region only when no city is given, never a repeat of the city), or undefined. */
export function placeOf(city?: string, region?: string, country?: string): string | undefined {
  const parts = [city ?? region, country].filter((p): p is string => !!p);
  const uniq = parts.filter((p, i) => parts.findIndex((q) => q.toLowerCase() === p.toLowerCase()) === i);
  return uniq.length ? uniq.join(", ") : undefined;
}
