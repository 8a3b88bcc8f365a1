import { createDatabase, type Database } from '#app/db/database.server'
import { migrate } from '#app/db/migrate.server'
import { seedDemoData } from '#app/db/seed.server'
import type { AppServices } from '#app/context.server'
import { initEnv } from '#app/env.server'
import { createPlatform } from '#app/platform/index.server'

/**
 * Everything the server needs before it takes a request: the environment
 * (parsed once; a bad value throws EnvError), the database (migrated and, on
 * the embedded default, seeded with demo data) and the platform adapters.
 */
export async function boot(log: (line: string) => void = console.log): Promise<AppServices> {
	const env = initEnv(process.env)
	const db: Database = await createDatabase(
		env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.PGLITE_DATA_DIR },
	)
	log(`database: ${env.DATABASE_URL ? 'postgres (DATABASE_URL)' : `PGlite in ${env.PGLITE_DATA_DIR}`}`)
	if (env.MIGRATE_ON_START) {
		const applied = await migrate(db, { platform: env.PLATFORM, log })
		log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date')
	}
	if (env.DEMO_DATA) {
		await seedDemoData(db)
		log('demo data: ready')
	}
	return { env, db, platform: await createPlatform(env, db) }
}
