import Testing
@testable import Physics2D
