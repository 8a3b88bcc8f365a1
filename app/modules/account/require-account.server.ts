import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError } from 'remix-toast'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import type { Viewer } from './types'
import { queryAsViewer } from '#app/utils/db.server'
import { wantsJson } from '#app/utils/http'
import { safeRedirectPath } from '#app/utils/redirect'
import type { GatedReason } from './gate'
import { accountGate } from './gate.server'
import { rememberReturnPath } from './return-path.server'

type Gated = { reason: GatedReason; returnTo: string | null | undefined }

function where(request: Request, returnTo: string | null | undefined) {
	const lang = localeFromPath(new URL(request.url).pathname) ?? localeFromPath(returnTo ?? '') ?? DEFAULT_LOCALE
	return { lang, back: safeRedirectPath(returnTo, `/${lang}`) }
}

/**
 * The first half of requireReadyAccount, for an action whose database call
 * checks the account steps itself (the dares' calls refuse with
 * error-account-incomplete): a visitor is answered as below, a viewer
 * returned without a query. On that refusal the action calls
 * requireReadyAccount, which says which step is owed.
 */
export async function requireSignedIn(request: Request, context: Readonly<RouterContextProvider>, { reason, returnTo }: Gated): Promise<Viewer> {
	const viewer = context.get(viewerContext)
	if (viewer) return viewer
	const { env } = context.get(servicesContext)
	const { t } = getInstance(context)
	const { lang, back } = where(request, returnTo)
	if (wantsJson(request)) throw data({ error: 'error-not-authenticated' }, { status: 401 })
	throw await redirectWithError(`/${lang}/login`, t(`gate.must-log-in-${reason}`), {
		headers: { 'set-cookie': rememberReturnPath(back, env.APP_URL.startsWith('https:')) },
	})
}

/**
 * The server half of a gated action (docs/product.md §2.6; the client half is
 * useGatedAction): the action's route calls this first and gets the viewer
 * when they are signed in with a username and the current terms accepted.
 * Otherwise nothing happens and:
 *
 * - a JSON request gets 401 (not signed in) or 403 (account steps owed) with
 *   `{ error }`;
 * - a form post, with or without JavaScript, is redirected: a visitor to
 *   /{lang}/login with the must-log-in toast, remembering `returnTo` (the page
 *   the action was on) for after signing in; a viewer who still owes the
 *   username or the terms back to `returnTo`, where those dialogs are forced.
 *
 * `returnTo` comes from the form and is only ever used as a same-origin path.
 */
export async function requireReadyAccount(request: Request, context: Readonly<RouterContextProvider>, gated: Gated): Promise<Viewer> {
	const viewer = await requireSignedIn(request, context, gated)
	const { t } = getInstance(context)
	const json = wantsJson(request)
	const { back } = where(request, gated.returnTo)
	const { gate } = await queryAsViewer(context, (tx) => {
		const versions = currentDocumentVersions()
		return accountGate(tx, versions.terms_of_service, versions.creator_agreement)
	})
	if (gate) {
		if (json) throw data({ error: 'error-account-incomplete' }, { status: 403 })
		throw await redirectWithError(back, t(gate === 'complete-profile' ? 'account.complete-required' : 'account.terms-accept-to-continue'))
	}
	return viewer
}
