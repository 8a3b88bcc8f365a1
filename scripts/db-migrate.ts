/**
 * npm run db:migrate
 *
 * Applies supabase/migrations (and, on the local platform, supabase/local-shim
 * first) to DATABASE_URL when set, else to the PGlite folder PGLITE_DATA_DIR
 * (default .data/pglite). PLATFORM is `local` (default) or `supabase`.
 * Run it from the project root. Exits 1 with the reason on failure.
 */
import { createDatabase, type Database } from '../app/db/database.server'
import { migrate } from '../app/db/migrate.server'

async function main(): Promise<void> {
	const platform = process.env.PLATFORM ?? 'local'
	if (platform !== 'local' && platform !== 'supabase') {
		throw new Error(`PLATFORM must be "local" or "supabase", not "${platform}"`)
	}
	const url = process.env.DATABASE_URL || undefined
	const dataDir = process.env.PGLITE_DATA_DIR || '.data/pglite'
	// Never print the URL: it usually carries a password.
	console.log(`db:migrate: ${url ? 'Postgres at DATABASE_URL' : `PGlite in ${dataDir}`}, platform ${platform}`)

	let db: Database | undefined
	try {
		db = await createDatabase(url ? { url } : { dataDir })
		const applied = await migrate(db, { platform, log: (line) => console.log(`  ${line}`) })
		console.log(applied.length > 0 ? `db:migrate: applied ${applied.join(', ')}` : 'db:migrate: already up to date')
	} finally {
		await db?.close()
	}
}

main().catch((error: unknown) => {
	console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`)
	process.exitCode = 1
})
