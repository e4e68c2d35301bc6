import Foundation

/// One of Apple Podcasts' categories (the feed's `itunes:category`), with its subcategories,
/// as Apple's "Apple Podcasts categories" page lists them (19 categories; a show names one
/// category and optionally one of its subcategories).
///
/// ```swift
/// let (category, sub) = try PodcastCategory.validate("music", "music commentary")
/// // ("Music", "Music Commentary"): the spelling the feed must use
/// ```
public struct PodcastCategory: Sendable, Hashable, Codable {
    /// The category's exact text, e.g. `Kids & Family`.
    public let name: String
    /// Its subcategories' exact texts (empty for Government, History, True Crime).
    public let subcategories: [String]

    /// A category.
    public init(name: String, subcategories: [String]) {
        self.name = name
        self.subcategories = subcategories
    }

    /// Apple's list, in Apple's order.
    public static let all: [PodcastCategory] = [
        .init(name: "Arts", subcategories: ["Books", "Design", "Fashion & Beauty", "Food", "Performing Arts", "Visual Arts"]),
        .init(name: "Business", subcategories: ["Careers", "Entrepreneurship", "Investing", "Management", "Marketing", "Non-Profit"]),
        .init(name: "Comedy", subcategories: ["Comedy Interviews", "Improv", "Stand-Up"]),
        .init(name: "Education", subcategories: ["Courses", "How To", "Language Learning", "Self-Improvement"]),
        .init(name: "Fiction", subcategories: ["Comedy Fiction", "Drama", "Science Fiction"]),
        .init(name: "Government", subcategories: []),
        .init(name: "History", subcategories: []),
        .init(name: "Health & Fitness", subcategories: ["Alternative Health", "Fitness", "Medicine", "Mental Health",
                                                        "Nutrition", "Sexuality"]),
        .init(name: "Kids & Family", subcategories: ["Education for Kids", "Parenting", "Pets & Animals", "Stories for Kids"]),
        .init(name: "Leisure", subcategories: ["Animation & Manga", "Automotive", "Aviation", "Crafts", "Games", "Hobbies",
                                               "Home & Garden", "Video Games"]),
        .init(name: "Music", subcategories: ["Music Commentary", "Music History", "Music Interviews"]),
        .init(name: "News", subcategories: ["Business News", "Daily News", "Entertainment News", "News Commentary", "Politics",
                                            "Sports News", "Tech News"]),
        .init(name: "Religion & Spirituality", subcategories: ["Buddhism", "Christianity", "Hinduism", "Islam", "Judaism",
                                                               "Religion", "Spirituality"]),
        .init(name: "Science", subcategories: ["Astronomy", "Chemistry", "Earth Sciences", "Life Sciences", "Mathematics",
                                               "Natural Sciences", "Nature", "Physics", "Social Sciences"]),
        .init(name: "Society & Culture", subcategories: ["Documentary", "Personal Journals", "Philosophy", "Places & Travel",
                                                         "Relationships"]),
        .init(name: "Sports", subcategories: ["Baseball", "Basketball", "Cricket", "Fantasy Sports", "Football", "Golf", "Hockey",
                                              "Rugby", "Running", "Soccer", "Swimming", "Tennis", "Volleyball", "Wilderness",
                                              "Wrestling"]),
        .init(name: "Technology", subcategories: []),
        .init(name: "True Crime", subcategories: []),
        .init(name: "TV & Film", subcategories: ["After Shows", "Film History", "Film Interviews", "Film Reviews", "TV Reviews"]),
    ]

    /// The category named `name` (case-insensitive, surrounding spaces ignored), or nil.
    public static func named(_ name: String) -> PodcastCategory? {
        let key = fold(name)
        return all.first { fold($0.name) == key }
    }

    /// Checks a category and subcategory against ``all`` and returns them in Apple's exact
    /// spelling; empty texts count as none. A subcategory needs its category and must be one
    /// of its subcategories. Throws ``RadioStoreError/invalid(_:)`` saying what is wrong.
    public static func validate(_ category: String?, _ subcategory: String?) throws -> (category: String?, subcategory: String?) {
        let c = category.map(fold) ?? "", s = subcategory.map(fold) ?? ""
        if c.isEmpty {
            guard s.isEmpty else { throw RadioStoreError.invalid("a subcategory needs its category") }
            return (nil, nil)
        }
        guard let found = named(c) else {
            throw RadioStoreError.invalid("'\(category!.prefix(60))' is not an Apple Podcasts category (see GET /api/radio/categories)")
        }
        if s.isEmpty { return (found.name, nil) }
        guard let sub = found.subcategories.first(where: { fold($0) == s }) else {
            throw RadioStoreError.invalid("'\(subcategory!.prefix(60))' is not a subcategory of \(found.name)"
                + (found.subcategories.isEmpty ? " (it has none)" : " (\(found.subcategories.joined(separator: ", ")))"))
        }
        return (found.name, sub)
    }

    private static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
