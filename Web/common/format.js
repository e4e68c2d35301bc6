// Formatting shared by the pages: numbers, plurals and durations in the page's language.
//
//   import { plural, duration } from "/common/format.js";
//   plural("library.count.songs", 3);   // "3 songs" (keys library.count.songs.one / .other)
//   duration(3725);                     // "1:02:05"
import { currentLanguage, hasText, t } from "./i18n.js";

/** The page's language: <html lang>, which the translations set (English before that). */
export function lang() {
  return document.documentElement.lang || "en";
}

/** A number in the page's language with exactly `digits` decimals (1234.5 → "1,235"). */
export function number(value, digits = 0) {
  return Number(value).toLocaleString(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const pluralRules = new Map(); // language -> Intl.PluralRules

/** The CLDR plural category of count in the strings' language ("one", "other", "many", …). */
function pluralCategory(count) {
  const language = currentLanguage();
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, rules = new Intl.PluralRules(language));
  return rules.select(count);
}

/** The string of key's plural form for count, with {count} (formatted) and values filled in.
 *  The forms are keys ending in the Intl.PluralRules category (key.one, key.other, …);
 *  a category without its own string (Italian "many" for a million) uses key.other. */
export function plural(key, count, values = {}) {
  const category = pluralCategory(Number(count));
  const form = hasText(`${key}.${category}`) ? `${key}.${category}` : `${key}.other`;
  return t(form, { count: number(count), ...values });
}

/** A stopwatch's reading: whole seconds elapsed (floored, never below 0) as m:ss or h:mm:ss. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

/** Seconds as m:ss (h:mm:ss from an hour), rounded; "—" for a missing or non-finite value. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
