/// A project as stored: its identifiers plus the JSON document of its configuration, which
/// the domain layer encodes and decodes. `revision` grows with every change, so nodes can
/// tell when their cached copy is stale.
public struct ProjectRecord: Sendable, Equatable {
    public var projectID: String
    public var projectNumber: String
    public var document: String
    public var revision: Int64
    public var updatedAt: Int64

    public init(projectID: String, projectNumber: String, document: String, revision: Int64, updatedAt: Int64) {
        self.projectID = projectID
        self.projectNumber = projectNumber
        self.document = document
        self.revision = revision
        self.updatedAt = updatedAt
    }
}

private let selectProjects = SQLStatement(
    "SELECT project_id, project_number, document, revision, updated_at FROM projects ORDER BY project_id"
)

private let selectProject = SQLStatement(
    "SELECT project_id, project_number, document, revision, updated_at FROM projects WHERE project_id = ?"
)

extension StoreReading {
    public func projects() throws(StoreError) -> [ProjectRecord] {
        try connection.query(selectProjects, []).map(ProjectRecord.init(row:))
    }

    public func project(id: String) throws(StoreError) -> ProjectRecord? {
        try connection.queryFirst(selectProject, [.text(id)]).map(ProjectRecord.init(row:))
    }
}

private let selectLatestProjectRevision = SQLStatement("SELECT COALESCE(MAX(revision), 0) FROM projects")

private let upsertProject = SQLStatement(
    """
    INSERT INTO projects (project_id, project_number, document, revision, updated_at)
    VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (project_id) DO UPDATE SET
        project_number = excluded.project_number,
        document = excluded.document,
        revision = excluded.revision,
        updated_at = excluded.updated_at
    """
)

private let deleteProjectMailBodies = SQLStatement(
    "DELETE FROM mail_bodies WHERE id IN (SELECT id FROM mail_outbox WHERE project_id = ?)"
)

private let deleteProjectRow = SQLStatement("DELETE FROM projects WHERE project_id = ?")

extension WriteTransaction {
    /// Inserts the project, or replaces the stored one with the same ID, and announces it to
    /// the other nodes. The revision is set to one more than the highest revision in the table.
    @discardableResult
    public func saveProject(
        id: String,
        number: String,
        document: String,
        at now: Int64
    ) throws(StoreError) -> ProjectRecord {
        let revision =
            (try connection.queryFirst(selectLatestProjectRevision, [])?.int64(0) ?? 0) + 1
        try connection.execute(
            upsertProject,
            [.text(id), .text(number), .text(document), .integer(revision), .integer(now)]
        )
        try announce(.projects)
        return ProjectRecord(
            projectID: id,
            projectNumber: number,
            document: document,
            revision: revision,
            updatedAt: now
        )
    }

    /// Deletes the project and, through the foreign keys, everything that belongs to it, and
    /// announces it to the other nodes.
    @discardableResult
    public func deleteProject(id: String) throws(StoreError) -> Bool {
        // Message bodies have no foreign key (they are keyed by message ID alone).
        try connection.execute(deleteProjectMailBodies, [.text(id)])
        let deleted = try connection.execute(deleteProjectRow, [.text(id)]) > 0
        if deleted { try announce(.projects) }
        return deleted
    }
}

extension ProjectRecord {
    init(row: SQLRow) {
        self.init(
            projectID: row.string(0),
            projectNumber: row.string(1),
            document: row.string(2),
            revision: row.int64(3),
            updatedAt: row.int64(4)
        )
    }
}
