// Translation of the pages: English and Italian, and Spanish for the radio (the original
// Spreaker app's three languages; other keys fall back to English). Elements carry data-i18n="key" (text) or
// data-i18n-attr="attribute:key[,attribute:key]"; t(key, values) fills {placeholders}.
import en from "./i18n/en.js";
import it from "./i18n/it.js";
import es from "./i18n/es.js";

export const languages = { en, it, es };
const storageKey = "quintet.lang";

/** The chosen language: ?lang=, then the stored choice, then the browser's, then English. */
export function currentLanguage() {
  const fromQuery = new URLSearchParams(location.search).get("lang");
  if (fromQuery && languages[fromQuery]) return fromQuery;
  try {
    const stored = localStorage.getItem(storageKey);
    if (stored && languages[stored]) return stored;
  } catch (_) { /* storage may be disabled */ }
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return languages[browser] ? browser : "en";
}

/** The string for key in the current language, with {name} placeholders filled from values. */
export function t(key, values = {}) {
  const lang = currentLanguage();
  const text = languages[lang][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** Whether key has a string in the current language or in English. */
export function hasText(key) {
  return (languages[currentLanguage()][key] ?? en[key]) !== undefined;
}

/** Translates every marked element under root and sets <html lang>. */
export function applyTranslations(root = document) {
  document.documentElement.lang = currentLanguage();
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(",")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** Stores a language choice and re-translates the page. */
export function setLanguage(lang) {
  if (!languages[lang]) return;
  try { localStorage.setItem(storageKey, lang); } catch (_) { /* not persisted */ }
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) { url.searchParams.set("lang", lang); history.replaceState(null, "", url); }
  applyTranslations();
}
