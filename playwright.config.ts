import { defineConfig, type Project } from '@playwright/test'
import { findChromium } from './tests/support/chromium.js'
import { DECIDED_STORAGE_STATE } from './tests/e2e/support/consent'
import { DEMO_USERS } from './app/db/seed.server'

/**
 * End-to-end tests: what only a browser shows, against the production build
 * (`npm run build` first) in Chromium (CHROMIUM_PATH, else Debian's, else
 * Playwright's own: tests/support/chromium.js), on the embedded default
 * (PGlite). The matrix follows need (docs/decisions/043-tests-by-need.md):
 *
 *  - `js`: every spec, desktop, JavaScript on;
 *  - `nojs`: the form journeys again with JavaScript off (every form works
 *    without it, and the page's answers differ);
 *  - `phone-js`, `phone-nojs`: the layout specs at 390 px;
 *  - `postgres`: the specs that need server processes of their own on one
 *    Postgres server (with TEST_DATABASE_URL); they start them themselves.
 *
 * What a request shows (status, headers, HTML, redirects) is tested in
 * Vitest against the same build (tests/http), on both databases; SQL rules in
 * Vitest on both databases (tests/sql).
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
]

const port = Number(process.env.E2E_PORT ?? 3101)

/**
 * Journeys through forms, run with JavaScript on and off; and the security
 * spec, whose check of Content-Security-Policy violations covers the pages a
 * rejected form post renders without JavaScript.
 */
const FORM_JOURNEYS = /\/(accounts|auth-dialog|channels|consent|creator-on-stream|dares|flash|moderation|oauth|overlay|resend|security|sessions|settings|shop)\.spec\.ts$/

/** Specs about the small-screen layout: run at phone width too. */
const LAYOUT = /\/header\.spec\.ts$/

/** Specs that start server processes of their own on the Postgres server. */
const POSTGRES_ONLY = /\/dares-two-servers\.spec\.ts$/

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

function project(name: string, javaScriptEnabled: boolean, select: Pick<Project, 'testMatch' | 'testIgnore'>, use: Project['use'] = {}): Project {
	return {
		name,
		...select,
		// Tests about one mode only are tagged @js-only or @nojs-only and run only there.
		grepInvert: javaScriptEnabled ? /@nojs-only/ : /@js-only/,
		use: {
			browserName: 'chromium' as const,
			baseURL: `http://127.0.0.1:${port}`,
			javaScriptEnabled,
			locale: 'en-US',
			launchOptions: {
				// undefined: Playwright's default, which reports how to install it.
				executablePath: findChromium().path,
				args: CHROMIUM_ARGS,
			},
			...use,
		},
	}
}

const projects: Project[] = [
	project('js', true, { testIgnore: POSTGRES_ONLY }),
	project('nojs', false, { testMatch: FORM_JOURNEYS }),
	project('phone-js', true, { testMatch: LAYOUT }, PHONE),
	project('phone-nojs', false, { testMatch: LAYOUT }, PHONE),
	...(process.env.TEST_DATABASE_URL ? [project('postgres', true, { testMatch: POSTGRES_ONLY })] : []),
]

export default defineConfig({
	testDir: './tests/e2e',
	testMatch: '**/*.spec.ts',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: 0,
	// Two cores run two browsers, the server and its database at once.
	workers: 2,
	reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
	timeout: 60_000,
	expect: { timeout: 10_000 },
	// The cookie choice is made (tests/e2e/support/consent.ts); consent.spec.ts starts without it.
	// A trace records every step of every test, a tenth of the suite's time on two cores: kept for
	// local runs; CI keeps a screenshot of a failure (and the failing spec can be run again with a trace).
	use: { trace: process.env.CI ? 'off' : 'retain-on-failure', screenshot: 'only-on-failure', storageState: DECIDED_STORAGE_STATE },
	projects,
	// Lucia, a demo account no other spec signs in as, is an operator: moderation.spec.ts decides reports as her.
	webServer: {
		command: `node tests/support/start-server.js pglite ${port} --operator ${DEMO_USERS.lucia.email}`,
		url: `http://127.0.0.1:${port}/en`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'pipe' as const,
		stderr: 'pipe' as const,
	},
})
