import type { BrowserContext } from '@playwright/test'

/**
 * Every spec starts with the cookie choice already made ("necessary only"),
 * as a returning visitor has it, so the banner does not sit over what a spec
 * tests (playwright.config.ts). consent.spec.ts starts without a choice.
 */
export const CONSENT_COOKIES = { cookie_consent: 'true', cookie_consent_ids: 'sign-in~preferences~notices' }

export const DECIDED_STORAGE_STATE = {
	cookies: Object.entries(CONSENT_COOKIES).map(([name, value]) => ({
		name,
		value,
		domain: '127.0.0.1',
		path: '/',
		expires: -1,
		httpOnly: false,
		secure: false,
		sameSite: 'Lax' as const,
	})),
	origins: [],
}

export const UNDECIDED_STORAGE_STATE = { cookies: [], origins: [] }

/** "Another device" for sign-in purposes: every cookie but the cookie choice is gone. */
export async function clearCookiesButConsent(context: BrowserContext): Promise<void> {
	await context.clearCookies({ name: /^(?!cookie_consent(_ids)?$)/ })
}
