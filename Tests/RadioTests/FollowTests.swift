import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// The follow graph and the public profile.
@Suite("Radio follows")
struct FollowTests {
    @Test("follow and unfollow users: idempotent, counted, listed; no self-follow; unknown users 404")
    func users() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let anna = try f.user("anna", displayName: "Anna R."), bruno = try f.user("bruno"), carla = try f.user("carla")
        try f.follows.followUser(follower: bruno, name: "anna")
        try f.follows.followUser(follower: bruno, name: "anna")       // twice is once
        try f.follows.followUser(follower: carla, name: "ANNA")       // names are case-insensitive
        let counts = try f.follows.counts(userID: anna)
        #expect(counts.followers == 2 && counts.following == 0)
        #expect(try f.follows.counts(userID: bruno).following == 1)
        #expect(try Set(f.follows.followers(of: "anna").map(\.name)) == ["bruno", "carla"])
        #expect(try f.follows.following(of: "bruno").map(\.displayName) == ["Anna R."])
        #expect(try f.follows.follows(bruno, user: anna))
        #expect(throws: RadioCommunityError.invalid("you cannot follow yourself")) { try f.follows.followUser(follower: anna, name: "anna") }
        #expect(throws: RadioCommunityError.self) { try f.follows.followUser(follower: anna, name: "nobody") }
        try f.follows.unfollowUser(follower: bruno, name: "anna")
        try f.follows.unfollowUser(follower: bruno, name: "anna")     // not following: no error
        #expect(try f.follows.counts(userID: anna).followers == 1)
        #expect(try !f.follows.follows(bruno, user: anna))
    }

    @Test("follow and unfollow shows: idempotent; a deleted or missing show cannot be followed")
    func shows() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let anna = try f.user("anna"), bruno = try f.user("bruno")
        let show = try f.show(anna, "Morning"), gone = try f.show(anna, "Gone")
        try f.follows.followShow(follower: bruno, showID: show)
        try f.follows.followShow(follower: bruno, showID: show)
        try f.follows.followShow(follower: anna, showID: show)        // one's own show: allowed
        #expect(try f.follows.followerCount(showID: show) == 2)
        try f.deleteShow(gone)
        #expect(throws: RadioCommunityError.notFound("no show \(gone)")) { try f.follows.followShow(follower: bruno, showID: gone) }
        #expect(throws: RadioCommunityError.self) { try f.follows.followShow(follower: bruno, showID: 999) }
        #expect(try f.follows.followedShowIDs(bruno) == [show])
        try f.follows.unfollowShow(follower: bruno, showID: show)
        #expect(try f.follows.followedShowIDs(bruno).isEmpty)
    }

    @Test("public profile: coarse position, picture URL only when set, counts, whether you follow, shows not deleted")
    func profile() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let anna = try f.user("anna", lat: 41.89, lon: 12.47, town: "Roma", displayName: "Anna", description: "Radio",
                              picture: "radio/profiles/1.jpg")
        let bruno = try f.user("bruno")
        let show = try f.show(anna, "Morning")
        try f.deleteShow(try f.show(anna, "Gone"))
        try f.follows.followUser(follower: bruno, name: "anna")
        try f.follows.followShow(follower: bruno, showID: show)
        let seen = try RadioPublicProfile.load(database: f.database, name: "anna", viewer: bruno)
        #expect(seen.displayName == "Anna" && seen.town == "Roma" && seen.description == "Radio")
        #expect(seen.latitude == 41.9 && seen.longitude == 12.5)
        #expect(seen.pictureURL == "/radio/users/\(anna)/picture")
        #expect(seen.followers == 1 && seen.following == 0 && seen.followedByViewer)
        #expect(seen.shows.map(\.title) == ["Morning"] && seen.shows[0].followedByViewer)
        let anonymous = try RadioPublicProfile.load(database: f.database, name: "anna", viewer: nil)
        #expect(!anonymous.followedByViewer && !anonymous.shows[0].followedByViewer)
        let plain = try RadioPublicProfile.load(database: f.database, name: "bruno", viewer: nil)
        #expect(plain.pictureURL == nil && plain.latitude == nil && plain.displayName == "" && plain.following == 1)
        #expect(throws: RadioCommunityError.self) { try RadioPublicProfile.load(database: f.database, name: "nobody", viewer: nil) }
    }
}
