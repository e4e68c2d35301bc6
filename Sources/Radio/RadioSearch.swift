import Foundation
import GRDB
import QuintetStore

/// Full-text search of shows, episodes and users (SQLite FTS5), migration `radio.v4-search`.
///
/// Three FTS5 tables, each row keyed by the indexed row's id (`rowid`):
/// `radio_search_shows(title, description, category)`, `radio_search_episodes(title,
/// description)` and `radio_search_users(name, display_name, town, description)` (the user's
/// name and their `radio_profiles` fields). The tokenizer is `unicode61 remove_diacritics 2`:
/// case and accents are folded (`perché` → `perche`, `canción` → `cancion`, `niño` → `nino`),
/// which serves Italian, English and Spanish alike. Triggers on `radio_shows`,
/// `radio_episodes`, `users` and `radio_profiles` keep the tables in step whoever writes the
/// rows (the store, the CLI, another part); the migration indexes the rows already there.
///
/// A query is never passed to FTS5 as is: ``ftsQuery(_:)`` folds it the same way, keeps its
/// words (letters and digits) and quotes each as a prefix term (`"word"*`), so quotes, `NEAR`,
/// `*`, `-` or a huge string can neither error nor change the query's meaning. Results are
/// ranked by `bm25` (then id); deleted shows and episodes and unpublished episodes never come back.
public struct RadioSearch: Sendable {
    /// The shared database.
    public let database: QuintetDatabase
    /// Most words of a query used (the rest is ignored).
    public static let maxTerms = 8
    /// Longest query text looked at, in characters.
    public static let maxQueryLength = 200

    /// Search over `database` (opened with the radio's migrations).
    public init(database: QuintetDatabase) { self.database = database }

    /// What to search.
    public enum Kind: String, Sendable, CaseIterable { case shows, episodes, users }

    /// One result: the id, its title (a user's name for users), a second line, and for episodes
    /// their show.
    public struct Hit: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var detail: String
        public var showID: Int64?
        public var showTitle: String?
    }

    /// The FTS5 query for `text`: its folded words as quoted prefix terms, ANDed; nil when it
    /// holds no word.
    public static func ftsQuery(_ text: String) -> String? {
        let folded = String(text.prefix(maxQueryLength)).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var terms: [String] = []
        var word = ""
        for character in folded + " " {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                terms.append(word)
                word = ""
            }
        }
        let kept = terms.prefix(maxTerms).map { "\"\(String($0.prefix(64)))\"*" }
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }

    /// Results for `text` among `kind`, best first, at most `limit`.
    public func search(_ text: String, kind: Kind, limit: Int = 20) throws -> [Hit] {
        guard let query = Self.ftsQuery(text) else { return [] }
        let limit = max(0, min(limit, 100))
        return try database.pool.read { db in
            switch kind {
            case .shows:
                return try Row.fetchAll(db, sql: """
                    SELECT s.id, s.title, u.name AS detail FROM radio_search_shows f JOIN radio_shows s ON s.id = f.rowid
                    JOIN users u ON u.id = s.owner_id
                    WHERE radio_search_shows MATCH ? AND s.deleted_at IS NULL ORDER BY bm25(radio_search_shows), s.id LIMIT ?
                    """, arguments: [query, limit]).map { Hit(id: $0["id"], title: $0["title"], detail: $0["detail"]) }
            case .episodes:
                return try Row.fetchAll(db, sql: """
                    SELECT e.id, e.title, e.description AS detail, s.id AS show_id, s.title AS show_title
                    FROM radio_search_episodes f JOIN radio_episodes e ON e.id = f.rowid JOIN radio_shows s ON s.id = e.show_id
                    WHERE radio_search_episodes MATCH ? AND e.deleted_at IS NULL AND s.deleted_at IS NULL AND e.state = 'published'
                    ORDER BY bm25(radio_search_episodes), e.id LIMIT ?
                    """, arguments: [query, limit]).map {
                        Hit(id: $0["id"], title: $0["title"], detail: String(($0["detail"] as String).prefix(200)),
                            showID: $0["show_id"], showTitle: $0["show_title"])
                    }
            case .users:
                return try Row.fetchAll(db, sql: """
                    SELECT u.id, u.name, COALESCE(p.display_name, '') AS display_name, COALESCE(p.town, '') AS town
                    FROM radio_search_users f JOIN users u ON u.id = f.rowid LEFT JOIN radio_profiles p ON p.user_id = u.id
                    WHERE radio_search_users MATCH ? ORDER BY bm25(radio_search_users), u.id LIMIT ?
                    """, arguments: [query, limit]).map {
                        let display: String = $0["display_name"], town: String = $0["town"]
                        return Hit(id: $0["id"], title: $0["name"], detail: [display, town].filter { !$0.isEmpty }.joined(separator: " · "))
                    }
            }
        }
    }

    // MARK: schema

    /// Adds `radio.v4-search` (registered by ``RadioSchema/registerMigrations(in:)``).
    static func registerMigrations(in registry: inout MigrationRegistry) {
        registry.register(system: RadioSchema.system, "v4-search") { db in
            let tokenizer = "tokenize = 'unicode61 remove_diacritics 2'"
            try db.execute(sql: """
                CREATE VIRTUAL TABLE radio_search_shows USING fts5(title, description, category, \(tokenizer));
                CREATE VIRTUAL TABLE radio_search_episodes USING fts5(title, description, \(tokenizer));
                CREATE VIRTUAL TABLE radio_search_users USING fts5(name, display_name, town, description, \(tokenizer));

                CREATE TRIGGER radio_search_shows_insert AFTER INSERT ON radio_shows BEGIN
                  INSERT INTO radio_search_shows (rowid, title, description, category)
                  VALUES (new.id, new.title, new.description, COALESCE(new.category, ''));
                END;
                CREATE TRIGGER radio_search_shows_update AFTER UPDATE OF title, description, category ON radio_shows BEGIN
                  DELETE FROM radio_search_shows WHERE rowid = old.id;
                  INSERT INTO radio_search_shows (rowid, title, description, category)
                  VALUES (new.id, new.title, new.description, COALESCE(new.category, ''));
                END;
                CREATE TRIGGER radio_search_shows_delete AFTER DELETE ON radio_shows BEGIN
                  DELETE FROM radio_search_shows WHERE rowid = old.id;
                END;

                CREATE TRIGGER radio_search_episodes_insert AFTER INSERT ON radio_episodes BEGIN
                  INSERT INTO radio_search_episodes (rowid, title, description) VALUES (new.id, new.title, new.description);
                END;
                CREATE TRIGGER radio_search_episodes_update AFTER UPDATE OF title, description ON radio_episodes BEGIN
                  DELETE FROM radio_search_episodes WHERE rowid = old.id;
                  INSERT INTO radio_search_episodes (rowid, title, description) VALUES (new.id, new.title, new.description);
                END;
                CREATE TRIGGER radio_search_episodes_delete AFTER DELETE ON radio_episodes BEGIN
                  DELETE FROM radio_search_episodes WHERE rowid = old.id;
                END;

                CREATE TRIGGER radio_search_users_insert AFTER INSERT ON users BEGIN
                  INSERT INTO radio_search_users (rowid, name, display_name, town, description) VALUES (new.id, new.name, '', '', '');
                END;
                CREATE TRIGGER radio_search_users_rename AFTER UPDATE OF name ON users BEGIN
                  UPDATE radio_search_users SET name = new.name WHERE rowid = new.id;
                END;
                CREATE TRIGGER radio_search_users_delete AFTER DELETE ON users BEGIN
                  DELETE FROM radio_search_users WHERE rowid = old.id;
                END;
                CREATE TRIGGER radio_search_profiles_insert AFTER INSERT ON radio_profiles BEGIN
                  UPDATE radio_search_users SET display_name = new.display_name, town = COALESCE(new.town, ''),
                    description = new.description WHERE rowid = new.user_id;
                END;
                CREATE TRIGGER radio_search_profiles_update AFTER UPDATE ON radio_profiles BEGIN
                  UPDATE radio_search_users SET display_name = new.display_name, town = COALESCE(new.town, ''),
                    description = new.description WHERE rowid = new.user_id;
                END;
                CREATE TRIGGER radio_search_profiles_delete AFTER DELETE ON radio_profiles BEGIN
                  UPDATE radio_search_users SET display_name = '', town = '', description = '' WHERE rowid = old.user_id;
                END;

                INSERT INTO radio_search_shows (rowid, title, description, category)
                  SELECT id, title, description, COALESCE(category, '') FROM radio_shows;
                INSERT INTO radio_search_episodes (rowid, title, description) SELECT id, title, description FROM radio_episodes;
                INSERT INTO radio_search_users (rowid, name, display_name, town, description)
                  SELECT u.id, u.name, COALESCE(p.display_name, ''), COALESCE(p.town, ''), COALESCE(p.description, '')
                  FROM users u LEFT JOIN radio_profiles p ON p.user_id = u.id;
                """)
        }
    }
}
