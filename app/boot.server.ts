import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ADVISORY_LOCKS } from '#app/db/advisory-locks'
import { createDatabase, type Database } from '#app/db/database.server'
import { migrate } from '#app/db/migrate.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { seedDemoData } from '#app/db/seed.server'
import type { AppServices } from '#app/context.server'
import { initEnv } from '#app/env.server'
import { configurePlatformFee, startDareSweeper } from '#app/modules/dares/sweeper.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { syncFilterTerms } from '#app/modules/moderation/filter.server'
import { startPayoutSender } from '#app/modules/payouts/sender.server'
import { configurePayoutSettings } from '#app/modules/payouts/settings.server'
import { createPlatform } from '#app/platform/index.server'
import { configureToastCookie } from '#app/security/toast-cookie.server'
import { reportPool } from '#app/metrics.server'

/**
 * Everything the server needs before it takes a request: the environment
 * (parsed once; a bad value throws EnvError), the legal documents (read
 * and checked), the database (migrated, the legal documents' versions
 * published, the platform fee, the payout settings and the text filter's
 * word lists set and, where DEMO_DATA is on, seeded with demo data), the
 * platform adapters, the dares' vote sweeper and the payout sender.
 */
export async function boot(log: (line: string) => void = console.log): Promise<AppServices> {
	const env = initEnv(process.env)
	// The legal documents are read and checked once, before anything else: a
	// missing language or mismatched versions stops the server here.
	const documents = currentDocumentVersions()
	log(`legal documents: terms ${documents.terms_of_service}, creator agreement ${documents.creator_agreement}`)
	if (env.PLATFORM === 'local' && !env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
		env.BETTER_AUTH_SECRET = await embeddedAuthSecret(`${env.PGLITE_DATA_DIR.replace(/\/+$/, '')}.auth-secret`)
	}
	if (configureToastCookie(env) === 'random' && env.isProduction) {
		log('flash messages: signed with a per-process key (set COOKIE_SECRET to share one across instances)')
	}
	const db: Database = await createDatabase(
		env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.PGLITE_DATA_DIR },
	)
	log(`database: ${env.DATABASE_URL ? 'postgres (DATABASE_URL)' : `PGlite in ${env.PGLITE_DATA_DIR}`}`)
	if (env.DATABASE_URL) await waitForDatabase(db, env.DB_CONNECT_TIMEOUT_MS, log)
	if (db.poolStats) reportPool(db.poolStats)
	// Migrations, the documents' versions, the fee, the demo data and the
	// demo sign-ins, one instance at a time: two instances starting together
	// on a fresh database each found the demo accounts missing and both
	// inserted them (one crashed). An instance that finds all done changes
	// nothing (no DDL, so instances already serving are not held up).
	const platform = await oneAtATime(db, !env.DATABASE_URL, async () => {
		if (env.MIGRATE_ON_START) {
			const applied = await migrate(db, { platform: env.PLATFORM, log })
			log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date')
		}
		// The legal documents' versions are the ones a user can consent to
		// (public.give_consent refuses any other; the last published is current).
		await publishDocumentVersions(db, documents)
		await configurePlatformFee(db, env.PLATFORM_FEE_PERCENT)
		// The payout settings (PAYOUT_*), where the ledger reads them.
		await configurePayoutSettings(db, env)
		// The text filter's built-in word lists (docs/product.md §13).
		await syncFilterTerms(db)
		if (env.DEMO_DATA) {
			await seedDemoData(db)
			log('demo data: ready')
		}
		return createPlatform(env, db)
	})
	const sweeper = startDareSweeper(db)
	// Approved payouts go to the payment provider (also those a restart left approved).
	const payouts = startPayoutSender({ env, db })
	return {
		env,
		db,
		platform,
		background: {
			stop: async () => {
				await payouts.stop()
				await sweeper.stop()
			},
		},
	}
}

/**
 * The embedded default's auth secret: random, created once and kept next to
 * the PGlite data (owner-only), so `npm start` needs no configuration and
 * restarts keep everyone signed in. A server deployment sets its own.
 */
async function embeddedAuthSecret(file: string): Promise<string> {
	try {
		const existing = (await readFile(file, 'utf8')).trim()
		if (existing.length >= 32) return existing
	} catch {
		// not created yet
	}
	const secret = randomBytes(48).toString('base64url')
	await mkdir(dirname(file), { recursive: true })
	await writeFile(file, `${secret}\n`, { mode: 0o600 })
	return secret
}

/**
 * A Postgres server that is not up yet (a container started beside its
 * database, a failover) is waited for: tried again with backoff (0.5 s,
 * doubling to 5 s), one line per failed try, until `timeoutMs` have passed;
 * then the start fails with the last reason.
 */
export async function waitForDatabase(db: Database, timeoutMs: number, log: (line: string) => void): Promise<void> {
	const deadline = Date.now() + timeoutMs
	for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 5_000)) {
		try {
			await db.query('select 1')
			if (attempt > 1) log(`database: reachable after ${attempt} tries`)
			return
		} catch (error) {
			const reason = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error))
			if (Date.now() + delay > deadline) {
				const failure = new Error(`database: not reachable within DB_CONNECT_TIMEOUT_MS (${timeoutMs} ms): ${reason}`)
				failure.name = 'DatabaseUnreachableError'
				throw failure
			}
			log(`database: not reachable (try ${attempt}: ${reason}); trying again in ${delay} ms`)
			await new Promise((resolve) => setTimeout(resolve, delay))
		}
	}
}

/**
 * Runs `fn` while holding the start-up lock: a transaction-scoped advisory
 * lock on a connection of its own, so that `fn`'s queries run on the pool's
 * other connections and another instance's start waits for this one's to
 * finish. Embedded PGlite is one process with one connection: no lock.
 */
async function oneAtATime<T>(db: Database, embedded: boolean, fn: () => Promise<T>): Promise<T> {
	if (embedded) return fn()
	return db.transaction(async (tx) => {
		await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.startup])
		return fn()
	})
}
