import { createDatabase, type Database } from './database.server'
import { migrate } from './migrate.server'

/**
 * `node server.js migrate` (and `npm run db:migrate`): applies
 * supabase/migrations (on the local platform supabase/local-shim first) to
 * DATABASE_URL when set, else to the PGlite folder PGLITE_DATA_DIR. Part of
 * the server bundle, so the container's runtime stage (production
 * dependencies only) can run it. Reads only the variables it needs, so a
 * migration step does not need the app's other settings (server.js passes
 * process.env). Run it from the
 * folder holding supabase/.
 */
export async function runMigrations(env: Record<string, string | undefined>): Promise<void> {
	const platform = env.PLATFORM || 'local'
	if (platform !== 'local' && platform !== 'supabase') {
		throw new Error(`PLATFORM must be "local" or "supabase", not "${platform}"`)
	}
	const url = env.DATABASE_URL || undefined
	const dataDir = env.PGLITE_DATA_DIR || '.data/pglite'
	// Never print the URL: it usually carries a password.
	console.log(`migrate: ${url ? 'Postgres at DATABASE_URL' : `PGlite in ${dataDir}`}, platform ${platform}`)
	let db: Database | undefined
	try {
		db = await createDatabase(url ? { url } : { dataDir })
		const applied = await migrate(db, { platform, log: (line) => console.log(`  ${line}`) })
		console.log(applied.length > 0 ? `migrate: applied ${applied.join(', ')}` : 'migrate: already up to date')
	} finally {
		await db?.close()
	}
}
