import { createContext } from 'react-router'
import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import type { Viewer } from '#app/modules/account/types'
import type { Platform } from '#app/platform/types'

/** Process-wide services, created once at boot by server/app.ts. */
export interface AppServices {
	env: Env
	db: Database
	platform: Platform
	/** Work that runs beside the requests (the dares' vote sweeper, the payouts' sender); stopped before the database closes. */
	background: { stop(): Promise<void> }
}

export const servicesContext = createContext<AppServices>()

/** The request's viewer (null for visitors), resolved once by the root middleware. */
export const viewerContext = createContext<Viewer | null>(null)
