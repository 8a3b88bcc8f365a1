import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { seedDemoSignIns } from './local/demo.server'
import { createLocalPlatform } from './local/index.server'
import type { Platform } from './types'

/** The platform named by PLATFORM. Supabase's modules load only when chosen. */
export async function createPlatform(env: Env, db: Database): Promise<Platform> {
	if (env.PLATFORM === 'supabase') {
		const { createSupabasePlatform } = await import('./supabase/index.server')
		return createSupabasePlatform(env, db)
	}
	// The demo accounts get a password to sign in with, only where demo data is on.
	if (env.DEMO_DATA) await seedDemoSignIns(db)
	return createLocalPlatform(env, db)
}
