/**
 * The app's own Postgres advisory locks (the single-key form), one number
 * each, in one place so that two uses cannot share one by accident (the
 * start-up lock once took the partitions' number, and an instance waited for
 * itself). Any constants; they only have to be the same in every instance.
 * The SQL's own advisory locks use the two-key form, which never meets these.
 */
export const ADVISORY_LOCKS = {
	/** Every migrate() on a database: each migration applied once, one after the other. */
	migrations: 7_246_120_261_122,
	/** Keeping realtime.messages' daily partitions: instances take turns. */
	messagePartitions: 7_246_120_261_127,
	/** An instance's start-up work (migrations, seeds, demo sign-ins): one instance at a time. */
	startup: 7_246_120_261_128,
} as const
