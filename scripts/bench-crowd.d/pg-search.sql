-- pgbench script of scripts/bench-crowd: one search through the PL/pgSQL function directly, at
-- :radius metres from a random point well inside the city, min 1, max 100, limit 20000, k = 1;
-- every row is sent to pgbench (as the server sends every location).
-- Variables (-D): radius, clat, clon, dlat, dlon (degrees per metre), half (metres).
\set n random(-:half, :half)
\set e random(-:half, :half)
\set lat :clat + :n * :dlat
\set lon :clon + :e * :dlon
SELECT * FROM @SCHEMA@.crowd_search(:lat, :lon, extract(epoch from clock_timestamp()) - 978307200, 86400, 1, :radius, 1, 100, 20000);
