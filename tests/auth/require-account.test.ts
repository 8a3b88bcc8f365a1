import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { servicesContext, viewerContext } from '#app/context.server'
import type { Database } from '#app/db/database.server'
import { initEnv } from '#app/env.server'
import { i18nextMiddleware } from '#app/i18n/i18next.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { requireReadyAccount } from '#app/modules/account/require-account.server'
import { RETURN_PATH_COOKIE } from '#app/modules/account/return-path.server'
import type { Viewer } from '#app/modules/account/types'
import type { Platform } from '#app/platform/types'
import { claimsFor, createAuthUser, describeEachDatabase } from '#tests/support/databases'
import { resources } from '#locales/index'

/**
 * The server half of a gated action against a real database: what an
 * action's route gets from requireReadyAccount for a visitor, a viewer who
 * still owes the username or the terms, and a ready viewer; as a form post
 * (redirects, with or without JavaScript) and as JSON.
 */

const env = initEnv({ NODE_ENV: 'test' })
/** The terms version users accept: the shipped document's. */
const TERMS = currentDocumentVersions().terms_of_service

function viewerFor(userId: string): Viewer {
	return { claims: claimsFor(userId), userId, email: `${userId}@test.local` }
}

/** Runs requireReadyAccount inside the app's i18n middleware, as a route action would; returns its viewer or the Response it threw. */
async function gate(db: Database, viewer: Viewer | null, init: { path?: string; json?: boolean; returnTo?: string } = {}) {
	const context = new RouterContextProvider()
	// Only the database and the env are used; the platform is not reached.
	context.set(servicesContext, { env, db, platform: {} as Platform, background: { stop: async () => {} } })
	context.set(viewerContext, viewer)
	const request = new Request(`http://localhost:3000${init.path ?? '/de/twitch/mia_plays'}`, {
		method: 'POST',
		headers: init.json ? { 'content-type': 'application/json' } : { 'content-type': 'application/x-www-form-urlencoded' },
	})
	let outcome: Viewer | Response | undefined
	await i18nextMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, async () => {
		try {
			outcome = await requireReadyAccount(request, context, { reason: 'boost', returnTo: init.returnTo ?? '/de/twitch/mia_plays?dare=7' })
		} catch (thrown) {
			if (thrown instanceof Response) outcome = thrown
			else if (thrown && typeof thrown === 'object' && 'data' in thrown && 'init' in thrown) {
				// data() thrown: React Router turns it into a response with this status and body.
				const { data, init: responseInit } = thrown as { data: unknown; init: ResponseInit | null }
				outcome = Response.json(data, { status: responseInit?.status ?? 200 })
			} else throw thrown
		}
		return new Response(null)
	})
	if (!outcome) expect.fail('requireReadyAccount neither returned nor threw')
	return outcome
}

async function readyUser(db: Database, { username = true, terms = TERMS as string | null } = {}) {
	const id = await createAuthUser(db)
	if (username) await db.query(`insert into public.profiles (id, username) values ($1, $2)`, [id, `u${id.slice(0, 8)}`])
	if (terms) await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', $2)`, [id, terms])
	return id
}

const de = resources.de.translation

describeEachDatabase('requireReadyAccount (gated actions)', (getDb) => {
	test('a visitor is sent to sign in with the must-log-in toast, and the page is remembered for after it', async () => {
		const outcome = await gate(getDb(), null)
		if (!(outcome instanceof Response)) expect.fail('a visitor got through')
		expect(outcome.status).toBe(302)
		expect(outcome.headers.get('location')).toBe('/de/login')
		const cookies = outcome.headers.getSetCookie()
		expect(cookies.find((c) => c.startsWith(`${RETURN_PATH_COOKIE}=`))).toContain(encodeURIComponent('/de/twitch/mia_plays?dare=7'))
		// The toast travels in remix-toast's flash cookie, translated for the page's language.
		const flash = cookies.find((c) => c.startsWith('toast-session='))
		expect(flash).toBeTruthy()
		const payload = Buffer.from(decodeURIComponent(flash!.split(';')[0]!.split('=')[1]!).split('.')[0]!, 'base64').toString('utf8')
		expect(payload).toContain(de.gate['must-log-in-boost'])
	})

	test('another site as the return path is never used', async () => {
		const outcome = await gate(getDb(), null, { returnTo: '//evil.example/x' })
		if (!(outcome instanceof Response)) expect.fail('a visitor got through')
		const remembered = outcome.headers.getSetCookie().find((c) => c.startsWith(`${RETURN_PATH_COOKIE}=`))
		expect(remembered).toContain(`${RETURN_PATH_COOKIE}=${encodeURIComponent('/de')};`)
	})

	test('a viewer without a username, or without the current terms, goes back to the page, where the dialogs are forced', async () => {
		const db = getDb()
		for (const id of [await readyUser(db, { username: false }), await readyUser(db, { terms: null }), await readyUser(db, { terms: 'v1' })]) {
			const outcome = await gate(db, viewerFor(id))
			if (!(outcome instanceof Response)) expect.fail('an unfinished account got through')
			expect(outcome.status).toBe(302)
			expect(outcome.headers.get('location')).toBe('/de/twitch/mia_plays?dare=7')
		}
	})

	test('JSON requests get 401 and 403 with an error code instead of redirects', async () => {
		const db = getDb()
		const visitor = await gate(db, null, { json: true })
		expect(visitor instanceof Response && visitor.status).toBe(401)
		expect(await (visitor as Response).json()).toEqual({ error: 'error-not-authenticated' })
		const unfinished = await gate(db, viewerFor(await readyUser(db, { terms: null })), { json: true })
		expect(unfinished instanceof Response && unfinished.status).toBe(403)
		expect(await (unfinished as Response).json()).toEqual({ error: 'error-account-incomplete' })
	})

	test('a ready viewer gets through', async () => {
		const db = getDb()
		const id = await readyUser(db)
		const outcome = await gate(db, viewerFor(id))
		expect(outcome).toEqual(viewerFor(id))
	})
})
