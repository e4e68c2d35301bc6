-- pgbench script of scripts/bench-crowd: one report through the PL/pgSQL function directly
-- (the side-by-side reference). A random bulk-loaded device (its key: HMAC-SHA-256 of the
-- token sim-@SEED@-<i> under the data folder's secret, as the server computes it) moves to a
-- random point of the city and asks the default search (200 m, min 1, max 20, limit 500).
-- Variables (-D): devices, clat, clon, dlat, dlon (degrees per metre), half (metres).
\set i random(0, :devices - 1)
\set n random(-:half, :half)
\set e random(-:half, :half)
\set lat :clat + :n * :dlat
\set lon :clon + :e * :dlon
\set age random(16, 70)
\set sx random(0, 1)
SELECT * FROM @SCHEMA@.crowd_report(hmac(convert_to('sim-@SEED@-' || :i, 'UTF8'), '\x@SECRET@'::bytea, 'sha256'), :lat, :lon, :age, CASE WHEN :sx = 0 THEN 'm' ELSE 'f' END, NULL, extract(epoch from clock_timestamp()) - 978307200, 86400, 1, 200, 1, 20, 500);
