import Foundation
import Radio
import Testing

@Suite("Apple Podcasts categories")
struct PodcastCategoryTests {
    @Test("Apple's 19 categories; names and subcategories validated case-insensitively into Apple's spelling")
    func validation() throws {
        #expect(PodcastCategory.all.count == 19)
        #expect(PodcastCategory.named("kids & family")?.subcategories.contains("Parenting") == true)
        let music = try PodcastCategory.validate(" music ", "music commentary")
        #expect(music.category == "Music" && music.subcategory == "Music Commentary")
        let crime = try PodcastCategory.validate("True Crime", nil)
        #expect(crime.category == "True Crime" && crime.subcategory == nil)
        let none = try PodcastCategory.validate("", "")
        #expect(none.category == nil && none.subcategory == nil)
        #expect(throws: RadioStoreError.self) { try PodcastCategory.validate("Cooking", nil) }
        #expect(throws: RadioStoreError.self) { try PodcastCategory.validate("Music", "Drama") }
        #expect(throws: RadioStoreError.self) { try PodcastCategory.validate("History", "Ancient") }
        #expect(throws: RadioStoreError.self) { try PodcastCategory.validate(nil, "Music Commentary") }
    }

    @Test("the feed writes itunes:category nested, & escaped")
    func feed() throws {
        let show = PodcastShow(title: "T", description: "D", link: "http://x/", feedURL: "http://x/f.xml", author: "a",
                               category: "Kids & Family", subcategory: "Pets & Animals")
        let xml = PodcastFeed(show: show, episodes: []).xml()
        #expect(xml.contains(#"<itunes:category text="Kids &amp; Family"><itunes:category text="Pets &amp; Animals"/></itunes:category>"#))
    }
}
