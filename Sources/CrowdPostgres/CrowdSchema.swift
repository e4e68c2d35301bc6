// The Crowd's tables and PL/pgSQL functions over PostGIS (docs/crowd.md, "PostgreSQL + PostGIS backend").
//
// The statements are templates: `@S` is the (quoted) schema of the Crowd's objects, `@G` the
// schema PostGIS lives in, `@GLOBAL` the key of the schema's global advisory lock. Every name
// is qualified, so the functions do not depend on a session's search_path.
//
// Times are seconds since Foundation's reference date (2001-01-01 UTC) in doubles, exactly as
// `Date.timeIntervalSinceReferenceDate` holds them, so a time read back is the same `Date` and
// expiry (`now − last > expiry`) is decided in the same doubles as in Swift.
//
// Serialization (several connections, several server processes):
//   * a report holds the schema's global advisory lock in shared mode, the lock of its device,
//     then the locks of the grid cells (0.001° × 0.001°, one cell per polar cap beyond ±84°)
//     that the 11 m neighbourhood of its new position touches plus the cell of its current
//     location's centre, taken in ascending order; so two reports that could meet (join or
//     found within 10 m of each other, leave or join the same location) run one after the
//     other, and reports far apart run (and commit, and flush) side by side;
//   * the expiry sweep, which touches locations anywhere, takes the global lock exclusively,
//     and only when some device has actually expired (an index probe decides);
//   * a search takes no lock: it reads one snapshot.
// Lock order is always global → device → cells (ascending), so there is no deadlock.

enum CrowdSchema {
    /// Bumped whenever a statement below changes; `connect` re-runs them when the stored
    /// version differs.
    static let version = 1

    /// Tables, indexes and the id sequence (idempotent).
    static let tables: [String] = [
        "CREATE SEQUENCE IF NOT EXISTS @S.crowd_location_ids",
        """
        CREATE TABLE IF NOT EXISTS @S.crowd_locations (
            id bigint PRIMARY KEY,
            lat double precision NOT NULL,
            lon double precision NOT NULL,
            geog @G.geography(Point, 4326) NOT NULL,
            people bigint NOT NULL,
            age_sum bigint NOT NULL,
            age_count bigint NOT NULL,
            men bigint NOT NULL,
            women bigint NOT NULL
        ) WITH (fillfactor = 80)
        """,
        "CREATE INDEX IF NOT EXISTS crowd_locations_geog ON @S.crowd_locations USING gist (geog)",
        """
        CREATE TABLE IF NOT EXISTS @S.crowd_devices (
            key bytea PRIMARY KEY,
            location_id bigint NOT NULL,
            last_report double precision NOT NULL,
            age bigint,
            sex text CHECK (sex IN ('m', 'f'))
        )
        """,
        "CREATE INDEX IF NOT EXISTS crowd_devices_last_report ON @S.crowd_devices (last_report)",
        """
        CREATE TABLE IF NOT EXISTS @S.crowd_comments (
            id bigserial PRIMARY KEY,
            location_id bigint NOT NULL,
            text text NOT NULL,
            time double precision NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS crowd_comments_location ON @S.crowd_comments (location_id, time DESC, id DESC)",
        "CREATE TABLE IF NOT EXISTS @S.crowd_schema (version integer NOT NULL)",
    ]

    /// The functions (CREATE OR REPLACE).
    static let functions: [String] = [
        // The haversine distance on the sphere of radius 6,371,008.8 m, operation for operation
        // as `CrowdRules.distance` (same doubles, same libm), so a boundary case (exactly 10 m,
        // exactly the radius) is decided the same way.
        """
        CREATE OR REPLACE FUNCTION @S.crowd_distance(lat1 double precision, lon1 double precision,
                                                    lat2 double precision, lon2 double precision)
        RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT 2 * '6371008.8'::double precision * asin(least('1'::double precision, sqrt(
                sin((lat2 - lat1) * (pi() / 180) / 2) * sin((lat2 - lat1) * (pi() / 180) / 2)
                + cos(lat1 * (pi() / 180)) * cos(lat2 * (pi() / 180))
                  * sin((lon2 - lon1) * (pi() / 180) / 2) * sin((lon2 - lon1) * (pi() / 180) / 2))))
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION @S.crowd_point(lat double precision, lon double precision)
        RETURNS @G.geography LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT @G.ST_SetSRID(@G.ST_MakePoint(lon, lat), 4326)::@G.geography
        $$
        """,
        // The lock key of the cell holding a centre.
        """
        CREATE OR REPLACE FUNCTION @S.crowd_cell(lat double precision, lon double precision)
        RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT CASE
                WHEN lat >= 84 THEN 288230376151711744
                WHEN lat <= -84 THEN 288230376151711745
                ELSE (floor(lat * 1000)::bigint + 90000) * 360000
                     + (((floor(lon * 1000)::bigint + 180000) % 360000) + 360000) % 360000
            END
        $$
        """,
        // The lock keys of every cell that a centre within 10 m of (lat, lon) can be in
        // (11 m of margin; at most 2 × 3 cells, or a polar cap).
        """
        CREATE OR REPLACE FUNCTION @S.crowd_area_keys(p_lat double precision, p_lon double precision)
        RETURNS bigint[] LANGUAGE plpgsql IMMUTABLE STRICT AS $$
        DECLARE
            dlat double precision := 11.0 / 6371008.8 * 180 / pi();
            lo double precision := p_lat - dlat;
            hi double precision := p_lat + dlat;
            dlon double precision;
            keys bigint[] := '{}';
        BEGIN
            IF hi >= 84 THEN keys := keys || 288230376151711744::bigint; END IF;
            IF lo <= -84 THEN keys := keys || 288230376151711745::bigint; END IF;
            lo := greatest(lo, -84);
            hi := least(hi, 84);
            IF lo <= hi THEN
                dlon := 11.0 / (6371008.8 * cos(greatest(abs(lo), abs(hi)) * pi() / 180)) * 180 / pi();
                -- (integer FOR loops: i and j are integers, widened before the arithmetic)
                FOR i IN floor(lo * 1000)::bigint .. floor(hi * 1000)::bigint LOOP
                    FOR j IN floor((p_lon - dlon) * 1000)::bigint .. floor((p_lon + dlon) * 1000)::bigint LOOP
                        keys := keys || ((i::bigint + 90000) * 360000 + (((j::bigint + 180000) % 360000) + 360000) % 360000);
                    END LOOP;
                END LOOP;
            END IF;
            RETURN keys;
        END
        $$
        """,
        // Devices whose last report is strictly older than `expiry` at `now` leave their
        // locations; emptied locations go with their comments. The oldest report (an index
        // probe: `now − t > expiry` only grows as t falls) says whether there is anything to do;
        // only then is the global lock taken (exclusively). The sweep runs as dynamic SQL so it
        // is planned with the actual times (a generic plan could scan every device).
        """
        CREATE OR REPLACE FUNCTION @S.crowd_expire(p_now double precision, p_expiry double precision)
        RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            oldest double precision;
            emptied bigint[];
        BEGIN
            SELECT min(d.last_report) INTO oldest FROM @S.crowd_devices d;
            IF oldest IS NULL OR NOT (p_now - oldest > p_expiry) THEN
                RETURN;
            END IF;
            PERFORM pg_advisory_xact_lock(@GLOBAL);
            EXECUTE $sweep$
                WITH gone AS (
                    DELETE FROM @S.crowd_devices
                    WHERE last_report < $1 - $2 + 0.001 AND $1 - last_report > $2
                    RETURNING location_id, age, sex
                ), agg AS (
                    SELECT location_id, count(*) AS n, coalesce(sum(age), 0) AS s, count(age) AS c,
                           count(*) FILTER (WHERE sex = 'm') AS m, count(*) FILTER (WHERE sex = 'f') AS w
                    FROM gone GROUP BY location_id
                ), upd AS (
                    UPDATE @S.crowd_locations l
                    SET people = l.people - agg.n, age_sum = l.age_sum - agg.s, age_count = l.age_count - agg.c,
                        men = l.men - agg.m, women = l.women - agg.w
                    FROM agg WHERE l.id = agg.location_id
                    RETURNING l.id, l.people
                )
                SELECT array_agg(upd.id) FILTER (WHERE upd.people <= 0) FROM upd
            $sweep$ INTO emptied USING p_now, p_expiry;
            IF emptied IS NOT NULL THEN
                DELETE FROM @S.crowd_comments WHERE location_id = ANY (emptied);
                DELETE FROM @S.crowd_locations WHERE id = ANY (emptied);
            END IF;
        END
        $$
        """,
        // The search proper: the GiST index pre-selects with ST_DWithin on the sphere (a
        // margin covers the two spheres' and formulas' differences), the haversine decides;
        // people in [p_lo, p_hi]; past p_limit the most crowded are kept (nearer, then lower
        // id first); the answer is ordered by distance, then id.
        """
        CREATE OR REPLACE FUNCTION @S.crowd_find(p_lat double precision, p_lon double precision, p_radius bigint,
                                                p_lo bigint, p_hi bigint, p_limit bigint)
        RETURNS TABLE(o_id bigint, o_lat double precision, o_lon double precision, o_people bigint,
                      o_age_sum bigint, o_age_count bigint, o_men bigint, o_women bigint,
                      o_distance double precision, o_truncated boolean)
        LANGUAGE sql STABLE AS $$
            WITH m AS (
                SELECT l.id, l.lat, l.lon, l.people, l.age_sum, l.age_count, l.men, l.women,
                       @S.crowd_distance(p_lat, p_lon, l.lat, l.lon) AS distance
                FROM @S.crowd_locations l
                WHERE @G.ST_DWithin(l.geog, @S.crowd_point(p_lat, p_lon), p_radius * 1.001::double precision + 1, false)
                  AND l.people BETWEEN p_lo AND p_hi
            ), kept AS (
                SELECT m.*, count(*) OVER () AS total FROM m
                WHERE m.distance <= p_radius
                ORDER BY m.people DESC, m.distance, m.id
                LIMIT p_limit
            )
            SELECT id, lat, lon, people, age_sum, age_count, men, women, distance, total > p_limit
            FROM kept ORDER BY distance, id
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION @S.crowd_search(p_lat double precision, p_lon double precision,
                                                  p_now double precision, p_expiry double precision, p_k bigint,
                                                  p_radius bigint, p_min bigint, p_max bigint, p_limit bigint)
        RETURNS TABLE(o_id bigint, o_lat double precision, o_lon double precision, o_people bigint,
                      o_age_sum bigint, o_age_count bigint, o_men bigint, o_women bigint,
                      o_distance double precision, o_truncated boolean)
        LANGUAGE plpgsql
        SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
        BEGIN
            PERFORM @S.crowd_expire(p_now, p_expiry);
            RETURN QUERY SELECT * FROM @S.crowd_find(p_lat, p_lon, p_radius, greatest(p_min, p_k), p_max, p_limit);
        END
        $$
        """,
        // One location and its latest comments (one row per comment, or one row with null
        // comment), nothing below k people.
        """
        CREATE OR REPLACE FUNCTION @S.crowd_location(p_id bigint, p_now double precision,
                                                    p_expiry double precision, p_k bigint)
        RETURNS TABLE(o_id bigint, o_lat double precision, o_lon double precision, o_people bigint,
                      o_age_sum bigint, o_age_count bigint, o_men bigint, o_women bigint,
                      o_text text, o_time double precision)
        LANGUAGE plpgsql
        SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
        BEGIN
            PERFORM @S.crowd_expire(p_now, p_expiry);
            RETURN QUERY
                SELECT l.id, l.lat, l.lon, l.people, l.age_sum, l.age_count, l.men, l.women, c.text, c.time
                FROM @S.crowd_locations l
                LEFT JOIN LATERAL (
                    SELECT cc.id, cc.text, cc.time FROM @S.crowd_comments cc
                    WHERE cc.location_id = l.id ORDER BY cc.time DESC, cc.id DESC LIMIT 10
                ) c ON true
                WHERE l.id = p_id AND l.people >= p_k
                ORDER BY c.time DESC, c.id DESC;
        END
        $$
        """,
        // A report: stay (within 10 m of the current centre: only age and sex change), or leave
        // (an emptied location goes at once with its comments) and join the nearest location
        // within 10 m (ties: lowest id) or found one; then the comment; then the answer: one row
        // of kind 0 (the device's location, its raw count) and rows of kind 1 (the search).
        """
        CREATE OR REPLACE FUNCTION @S.crowd_report(p_key bytea, p_lat double precision, p_lon double precision,
                                                  p_age bigint, p_sex text, p_comment text,
                                                  p_now double precision, p_expiry double precision, p_k bigint,
                                                  p_radius bigint, p_min bigint, p_max bigint, p_limit bigint)
        RETURNS TABLE(o_kind integer, o_id bigint, o_lat double precision, o_lon double precision, o_people bigint,
                      o_age_sum bigint, o_age_count bigint, o_men bigint, o_women bigint,
                      o_distance double precision, o_truncated boolean)
        LANGUAGE plpgsql
        SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
        DECLARE
            d_loc bigint;
            d_age bigint;
            d_sex text;
            have boolean;
            c_lat double precision;
            c_lon double precision;
            loc bigint;
            remaining bigint;
            keys bigint[];
            k bigint;
            new_man integer := CASE WHEN p_sex = 'm' THEN 1 ELSE 0 END;
            new_woman integer := CASE WHEN p_sex = 'f' THEN 1 ELSE 0 END;
            new_aged integer := CASE WHEN p_age IS NULL THEN 0 ELSE 1 END;
            old_man integer;
            old_woman integer;
            old_aged integer;
        BEGIN
            PERFORM @S.crowd_expire(p_now, p_expiry);
            PERFORM pg_advisory_xact_lock_shared(@GLOBAL);
            PERFORM pg_advisory_xact_lock(144115188075855872 + (hashtext(encode(p_key, 'hex'))::bigint & 4294967295));

            SELECT d.location_id, d.age, d.sex INTO d_loc, d_age, d_sex FROM @S.crowd_devices d WHERE d.key = p_key;
            have := FOUND;
            old_man := CASE WHEN d_sex = 'm' THEN 1 ELSE 0 END;
            old_woman := CASE WHEN d_sex = 'f' THEN 1 ELSE 0 END;
            old_aged := CASE WHEN d_age IS NULL THEN 0 ELSE 1 END;
            keys := @S.crowd_area_keys(p_lat, p_lon);
            IF have THEN
                SELECT l.lat, l.lon INTO c_lat, c_lon FROM @S.crowd_locations l WHERE l.id = d_loc;
                keys := keys || @S.crowd_cell(c_lat, c_lon);
            END IF;
            FOR k IN SELECT DISTINCT u FROM unnest(keys) AS u ORDER BY u LOOP
                PERFORM pg_advisory_xact_lock(k);
            END LOOP;

            IF have AND @S.crowd_distance(c_lat, c_lon, p_lat, p_lon) <= 10 THEN
                UPDATE @S.crowd_locations l
                SET age_sum = l.age_sum - coalesce(d_age, 0) + coalesce(p_age, 0),
                    age_count = l.age_count - old_aged + new_aged,
                    men = l.men - old_man + new_man,
                    women = l.women - old_woman + new_woman
                WHERE l.id = d_loc;
                UPDATE @S.crowd_devices d SET age = p_age, sex = p_sex, last_report = p_now WHERE d.key = p_key;
                loc := d_loc;
            ELSE
                IF have THEN
                    UPDATE @S.crowd_locations l
                    SET people = l.people - 1, age_sum = l.age_sum - coalesce(d_age, 0),
                        age_count = l.age_count - old_aged, men = l.men - old_man, women = l.women - old_woman
                    WHERE l.id = d_loc
                    RETURNING l.people INTO remaining;
                    IF remaining <= 0 THEN
                        DELETE FROM @S.crowd_comments cc WHERE cc.location_id = d_loc;
                        DELETE FROM @S.crowd_locations l WHERE l.id = d_loc;
                    END IF;
                END IF;
                SELECT c.id INTO loc FROM (
                    SELECT l.id, @S.crowd_distance(l.lat, l.lon, p_lat, p_lon) AS d
                    FROM @S.crowd_locations l
                    WHERE @G.ST_DWithin(l.geog, @S.crowd_point(p_lat, p_lon), 11, false)
                ) c WHERE c.d <= 10 ORDER BY c.d, c.id LIMIT 1;
                IF loc IS NULL THEN
                    loc := nextval('@S.crowd_location_ids');
                    INSERT INTO @S.crowd_locations (id, lat, lon, geog, people, age_sum, age_count, men, women)
                    VALUES (loc, p_lat, p_lon, @S.crowd_point(p_lat, p_lon), 1, coalesce(p_age, 0), new_aged,
                            new_man, new_woman);
                ELSE
                    UPDATE @S.crowd_locations l
                    SET people = l.people + 1, age_sum = l.age_sum + coalesce(p_age, 0),
                        age_count = l.age_count + new_aged, men = l.men + new_man, women = l.women + new_woman
                    WHERE l.id = loc;
                END IF;
                IF have THEN
                    UPDATE @S.crowd_devices d
                    SET location_id = loc, age = p_age, sex = p_sex, last_report = p_now WHERE d.key = p_key;
                ELSE
                    INSERT INTO @S.crowd_devices (key, location_id, last_report, age, sex)
                    VALUES (p_key, loc, p_now, p_age, p_sex);
                END IF;
            END IF;

            IF p_comment IS NOT NULL THEN
                INSERT INTO @S.crowd_comments (location_id, text, time) VALUES (loc, p_comment, p_now);
                DELETE FROM @S.crowd_comments cc
                WHERE cc.location_id = loc AND cc.id NOT IN (
                    SELECT c2.id FROM @S.crowd_comments c2 WHERE c2.location_id = loc
                    ORDER BY c2.time DESC, c2.id DESC LIMIT 10);
            END IF;

            RETURN QUERY
                SELECT 0, l.id, l.lat, l.lon, l.people, l.age_sum, l.age_count, l.men, l.women,
                       0::double precision, false
                FROM @S.crowd_locations l WHERE l.id = loc;
            RETURN QUERY
                SELECT 1, f.* FROM @S.crowd_find(p_lat, p_lon, p_radius, greatest(p_min, p_k), p_max, p_limit) f;
        END
        $$
        """,
    ]
}
