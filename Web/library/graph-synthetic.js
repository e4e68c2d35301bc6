// A generated graph for the explorer's frame-time benchmark (`make bench-explorer`):
// /library/?explorer-synthetic=2000#graph seeds the explorer with that many nodes — artists,
// their albums (with drawn covers) and songs, placed by the explorer's own placement, plus
// covers, identical recordings, tempo neighbours and band links between them — and no
// request to the server. Same count, same graph (a fixed-seed generator).

/** Fills graph with about `count` nodes; covers go into renderer.covers. */
export function seedSynthetic(graph, renderer, count) {
  let seed = 19;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const tiles = ["#2E5E8C", "#C0563B", "#E0B43A", "#8C2E6A", "#3A9E6B", "#444444"].map((colour, i) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 64, 64);
    ctx.fillStyle = "rgba(255,255,255,0.35)";
    ctx.beginPath();
    ctx.arc(20 + i * 5, 40 - i * 3, 14, 0, Math.PI * 2);
    ctx.fill();
    return canvas;
  });
  const songs = [], artists = [];
  let made = 0, id = 1;
  const add = (kind, name, parent, at) => {
    const node = graph.addNode({ kind, id: id++, name }, parent, at);
    made++;
    if (parent) graph.addEdge(parent.key, node.key, kind === "song" ? "song_of" : "album_of");
    return node;
  };
  while (made < count) {
    const a = artists.length;
    const artist = add("artist", `Artist ${a + 1}`, null, { x: (a % 8) * 900, y: Math.floor(a / 8) * 900 });
    artists.push(artist);
    const albums = 2 + Math.floor(random() * 3);
    for (let b = 0; b < albums && made < count; b++) {
      const album = add("album", `Album ${a + 1}.${b + 1}`, artist);
      renderer.covers.set(album.key, tiles[(a + b) % tiles.length]);
      const tracks = 6 + Math.floor(random() * 8);
      for (let s = 0; s < tracks && made < count; s++) songs.push(add("song", `Song ${a + 1}.${b + 1}.${s + 1}`, album));
    }
  }
  const link = (list, edge, n) => {
    for (let i = 0; i < n; i++) {
      const x = list[Math.floor(random() * list.length)], y = list[Math.floor(random() * list.length)];
      if (x !== y) graph.addEdge(x.key, y.key, edge);
    }
  };
  link(songs, "cover", Math.floor(songs.length / 20));
  link(songs, "identical", Math.floor(songs.length / 40));
  link(songs, "tempo", Math.floor(songs.length / 10));
  link(artists, "member_of", Math.floor(artists.length / 4));
  // Every link is on screen except a few, so "more links" marks show as well.
  for (const node of graph.nodes.values()) node.links = node.linked.size + (random() < 0.1 ? 1 : 0);
  for (const node of graph.nodes.values()) node.stage = 1;
  graph.version++;
  return graph.nodes.size;
}
