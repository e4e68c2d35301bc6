// CrowdPostgres: the Crowd service over PostgreSQL + PostGIS (issue 7). See docs/crowd.md.
import Crowd
import PostgresNIO
