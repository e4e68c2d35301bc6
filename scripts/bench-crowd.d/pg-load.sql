-- psql script of scripts/bench-crowd: bulk-loads the city into the PostGIS backend's schema
-- (1M reports through PL/pgSQL would take about half an hour). Same shape as the simulator's
-- city: a jittered grid of :side × :side locations :spacing m apart (each moved by up to ±5 m
-- north and east, so no two centres are within 10 m), centred on (:clat, :clon); :devices
-- devices sim-:seed-0 … spread over them round-robin (about five a location), keyed as the
-- server keys them (HMAC-SHA-256 under the data folder's secret, pgcrypto); seven in ten give
-- an age 16–70, four in ten are men, four in ten women; every device reported just now.
-- Each location's statistics are the sums over its devices. Variables (psql -v): schema,
-- side, spacing, devices, clat, clon, seed, secret (hex).
\set ON_ERROR_STOP on
SELECT setseed(0.42);
BEGIN;
TRUNCATE :schema.crowd_comments, :schema.crowd_devices, :schema.crowd_locations;
CREATE TEMP TABLE bench_grid ON COMMIT DROP AS
SELECT (gx * :side + gy + 1)::bigint AS id,
       :clat + ((gy - (:side - 1) / 2.0) * :spacing + (random() * 2 - 1) * 5) / 6371008.8 * 180 / pi() AS lat,
       :clon + ((gx - (:side - 1) / 2.0) * :spacing + (random() * 2 - 1) * 5)
               / (6371008.8 * cos(radians(:clat))) * 180 / pi() AS lon
FROM generate_series(0, :side - 1) gx, generate_series(0, :side - 1) gy;
CREATE TEMP TABLE bench_devices ON COMMIT DROP AS
SELECT hmac(convert_to('sim-' || :'seed' || '-' || i, 'UTF8'), decode(:'secret', 'hex'), 'sha256') AS key,
       (i % (:side * :side) + 1)::bigint AS location_id,
       CASE WHEN random() < 0.7 THEN 16 + floor(random() * 55)::bigint END AS age,
       (ARRAY['m', 'm', 'm', 'm', 'f', 'f', 'f', 'f', NULL, NULL])[1 + floor(random() * 10)::int] AS sex
FROM generate_series(0, :devices - 1) i;
INSERT INTO :schema.crowd_locations (id, lat, lon, geog, people, age_sum, age_count, men, women)
SELECT g.id, g.lat, g.lon, :schema.crowd_point(g.lat, g.lon), s.people, s.age_sum, s.age_count, s.men, s.women
FROM bench_grid g JOIN (
    SELECT location_id, count(*) AS people, coalesce(sum(age), 0) AS age_sum, count(age) AS age_count,
           count(*) FILTER (WHERE sex = 'm') AS men, count(*) FILTER (WHERE sex = 'f') AS women
    FROM bench_devices GROUP BY location_id
) s ON s.location_id = g.id;
INSERT INTO :schema.crowd_devices (key, location_id, last_report, age, sex)
SELECT key, location_id, extract(epoch from clock_timestamp()) - 978307200, age, sex FROM bench_devices;
SELECT setval(:'schema' || '.crowd_location_ids', (SELECT max(id) FROM :schema.crowd_locations));
COMMIT;
VACUUM ANALYZE :schema.crowd_locations;
VACUUM ANALYZE :schema.crowd_devices;
