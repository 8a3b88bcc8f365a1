import type { Database } from '#app/db/database.server'
import { ADVISORY_LOCKS } from '#app/db/advisory-locks'

/**
 * realtime.messages is partitioned by day, and on Supabase the Realtime server
 * keeps the partitions (read in supabase/realtime: Tenants.create_messages_partitions
 * when a project connects, and its janitor every 4 hours with
 * Messages.delete_old_messages first): one partition per day from yesterday
 * to three days ahead, and the partitions of days before 72 hours ago
 * dropped. There is no default partition, so a message written outside those
 * days has nowhere to go (realtime.send turns the error into a warning and
 * the broadcast is lost). Locally the relay keeps them the same way, so
 * nothing passes here that a Supabase project would drop.
 */
export const MESSAGE_DAYS_BEFORE = 1
export const MESSAGE_DAYS_AHEAD = 3
export const MESSAGE_RETENTION_HOURS = 72
/** Supabase's janitor schedule (JANITOR_SCHEDULE_TIMER_IN_MS). */
export const MESSAGE_MAINTENANCE_INTERVAL_MS = 4 * 60 * 60 * 1000

const PARTITION = /^messages_(\d{4})_(\d{2})_(\d{2})$/
const DAY_MS = 24 * 60 * 60 * 1000

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10)

export interface PartitionChanges {
	created: string[]
	dropped: string[]
}

/** Drops the expired days' partitions and creates the missing ones around `now`. */
export async function maintainMessagePartitions(db: Database, now: Date = new Date()): Promise<PartitionChanges> {
	return db.transaction(async (tx) => {
		await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.messagePartitions])
		const { rows } = await tx.query<{ name: string }>(
			`select child.relname as name
			from pg_catalog.pg_inherits i
			join pg_catalog.pg_class parent on parent.oid = i.inhparent
			join pg_catalog.pg_class child on child.oid = i.inhrelid
			join pg_catalog.pg_namespace n on n.oid = parent.relnamespace
			where n.nspname = 'realtime' and parent.relname = 'messages'`,
		)
		const existing = new Set(rows.map((row) => row.name))
		const oldestKept = isoDay(now.getTime() - MESSAGE_RETENTION_HOURS * 60 * 60 * 1000)
		const dropped: string[] = []
		for (const name of existing) {
			const day = PARTITION.exec(name)
			if (!day || `${day[1]}-${day[2]}-${day[3]}` >= oldestKept) continue
			// The name matched PARTITION: digits and underscores only.
			await tx.query(`drop table if exists realtime.${name}`)
			dropped.push(name)
		}
		const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
		const created: string[] = []
		for (let offset = -MESSAGE_DAYS_BEFORE; offset <= MESSAGE_DAYS_AHEAD; offset++) {
			const from = isoDay(today + offset * DAY_MS)
			const name = `messages_${from.replaceAll('-', '_')}`
			if (existing.has(name)) continue
			await tx.query(
				`create table if not exists realtime.${name} partition of realtime.messages for values from ('${from}') to ('${isoDay(today + (offset + 1) * DAY_MS)}')`,
			)
			// Like every other table of the schema here (local-shim/950_ownership.sql).
			await tx.query(`alter table realtime.${name} owner to supabase_admin`)
			created.push(name)
		}
		return { created, dropped }
	})
}

/** The relay's janitor: at once, then every 4 hours; a failure is logged and tried again at the next turn. */
export function keepMessagePartitions(db: Database, log: (line: string) => void = console.error): { stop(): void; ready: Promise<void> } {
	const run = () =>
		maintainMessagePartitions(db).then(
			() => undefined,
			(error: unknown) => log(`realtime.messages partitions: ${error instanceof Error ? error.message : String(error)}`),
		)
	const ready = run()
	const timer = setInterval(() => void run(), MESSAGE_MAINTENANCE_INTERVAL_MS)
	timer.unref()
	return { stop: () => clearInterval(timer), ready }
}
