// The "Members and bands" part of an artist's card in the graph explorer: the artist's band ↔
// member links with their sources, Remove for the ones a user added, and a small form that adds
// "X is a member of Y" / "X has member Y" (docs/graph.md, "The explorer" and "Band members").
//
//   const editor = membersEditor({ call: api, changed: (artist, other, linked) => …, message, announce });
//   card.append(editor.part); editor.show(artistNode);   // on every card drawn for an artist
//
// The part is one element kept across the card's redraws, so what is typed stays.
import { el } from "/common/dom.js";
import { hasText, t } from "/common/i18n.js";

const SUGGEST_FROM = 2;

export function membersEditor({ call, changed, message, announce }) {
  let artist = null; // the node shown
  let answer = null; // GET /api/library/members?artist=ID for it
  let loading = 0; // bumps per request, so a late answer for another artist is dropped
  let busy = false;
  let suggestTimer = 0;

  const heading = el("h3", { class: "graph-members-heading", id: "graph-members-heading" });
  const list = el("ul", { class: "graph-members-list", id: "graph-members-list" });
  const note = el("p", { class: "graph-members-note", id: "graph-members-note" });
  const relation = el("select", { id: "graph-members-relation" },
    el("option", { value: "member" }), el("option", { value: "band" }));
  const relationLabel = el("label", { for: "graph-members-relation", class: "visually-hidden" });
  const name = el("input", { type: "text", id: "graph-members-name", list: "graph-members-names", autocomplete: "off",
    enterkeyhint: "done" });
  const nameLabel = el("label", { for: "graph-members-name", class: "visually-hidden" });
  const names = el("datalist", { id: "graph-members-names" });
  const add = el("button", { type: "submit", id: "graph-members-add" });
  const form = el("form", { class: "graph-members-form", id: "graph-members-form" },
    relationLabel, relation, nameLabel, name, names, add);
  const part = el("section", { class: "graph-members", id: "graph-members", "aria-labelledby": "graph-members-heading" },
    heading, list, note, form);

  name.addEventListener("input", () => {
    clearTimeout(suggestTimer);
    const text = name.value.trim();
    if (text.length < SUGGEST_FROM) { names.replaceChildren(); return; }
    suggestTimer = setTimeout(() => suggest(text), 150);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); addLink(); });

  async function suggest(text) {
    try {
      const { artists } = await call(`/api/library/artists?q=${encodeURIComponent(text)}&limit=25`);
      if (name.value.trim() !== text) return;
      names.replaceChildren(...artists.filter((a) => !artist || a.id !== artist.id).map((a) => el("option", { value: a.name })));
    } catch (_) {
      names.replaceChildren(); // suggestions are a help only; adding says what is wrong
    }
  }

  async function load() {
    if (!artist) return;
    const ticket = ++loading;
    const id = artist.id;
    try {
      const got = await call(`/api/library/members?artist=${encodeURIComponent(id)}`);
      if (ticket !== loading) return;
      answer = got;
    } catch (err) {
      if (ticket !== loading) return;
      answer = null;
      note.textContent = t("library.graph.members.loadFailed", { message: err.message });
      return;
    }
    renderList();
  }

  function sourceText(sources) {
    return sources.map((s) => (hasText(`library.graph.members.source.${s}`) ? t(`library.graph.members.source.${s}`) : s)).join(", ");
  }

  function renderList() {
    if (!answer) { list.replaceChildren(); return; }
    const rows = [];
    const row = (other, kind, band, member) => {
      const user = other.sources.includes("user");
      const text = t(`library.graph.members.${kind}`, { name: other.name });
      const item = el("li", { "data-artist-id": String(other.id), "data-kind": kind },
        el("span", { class: "graph-members-text" }, text,
          el("span", { class: "graph-members-sources" }, ` — ${sourceText(other.sources)}`)));
      if (user) {
        item.append(el("button", { type: "button", class: "graph-members-remove", "aria-label": t("library.graph.members.removeLabel", { text }),
          onclick: () => removeLink(band, member, other) }, t("library.graph.members.remove")));
      }
      rows.push(item);
    };
    for (const m of answer.members) row(m, "hasMember", artist.id, m.id);
    for (const b of answer.bands) row(b, "memberOf", b.id, artist.id);
    list.replaceChildren(...rows);
    note.textContent = rows.length ? "" : t("library.graph.members.none");
  }

  async function addLink() {
    const other = name.value.trim();
    if (!artist || busy) return;
    if (!other) { message(t("library.graph.members.nameMissing"), "error"); name.focus(); return; }
    const isMember = relation.value === "member"; // "is a member of": the artist is the member
    const body = isMember ? { band: other, member: artist.id } : { band: artist.id, member: other };
    busy = true;
    add.disabled = true;
    const node = artist;
    try {
      const link = await call("/api/library/members", { method: "POST", body });
      const otherID = isMember ? link.band : link.member;
      const otherName = isMember ? link.band_name : link.member_name;
      name.value = "";
      names.replaceChildren();
      const text = isMember ? t("library.graph.members.addedMember", { name: node.name, other: otherName })
        : t("library.graph.members.addedBand", { name: node.name, other: otherName });
      message(text);
      announce(text);
      await load();
      await changed(node, { id: otherID, name: otherName }, true);
    } catch (err) {
      message(t("library.graph.members.addFailed", { message: err.message }), "error");
    } finally {
      busy = false;
      add.disabled = false;
    }
  }

  async function removeLink(band, member, other) {
    if (busy) return;
    busy = true;
    const node = artist;
    try {
      await call(`/api/library/members/${encodeURIComponent(band)}/${encodeURIComponent(member)}`, { method: "DELETE" });
      const text = t("library.graph.members.removed", { name: node.name, other: other.name });
      message(text);
      announce(text);
      await load();
      name.focus();
      await changed(node, { id: other.id, name: other.name }, false);
    } catch (err) {
      message(t("library.graph.members.removeFailed", { message: err.message }), "error");
    } finally {
      busy = false;
    }
  }

  function render() {
    heading.textContent = t("library.graph.members.heading");
    relation.options[0].textContent = t("library.graph.members.isMemberOf");
    relation.options[1].textContent = t("library.graph.members.hasMemberChoice");
    relationLabel.textContent = t("library.graph.members.relation");
    nameLabel.textContent = t("library.graph.members.name");
    name.placeholder = t("library.graph.members.placeholder");
    add.textContent = t("library.graph.members.add");
    renderList();
  }

  /** Shows the part for an artist node (loads its links when the artist changes). */
  function show(node) {
    if (!artist || artist.key !== node.key) {
      artist = node;
      answer = null;
      list.replaceChildren();
      note.textContent = t("library.graph.members.loading");
      name.value = "";
      names.replaceChildren();
      render();
      load();
    }
  }

  return { part, show, render, reload: load };
}
