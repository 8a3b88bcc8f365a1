import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError } from 'remix-toast'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import type { Viewer } from '#app/platform/types'
import { queryAsViewer } from '#app/utils/db.server'
import { wantsJson } from '#app/utils/http'
import { safeRedirectPath } from '#app/utils/redirect'
import type { GatedReason } from './gate'
import { accountGate } from './gate.server'
import { rememberReturnPath } from './return-path.server'

/**
 * The server half of a gated action (spec section 3; the client half is
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
export async function requireReadyAccount(
	request: Request,
	context: Readonly<RouterContextProvider>,
	{ reason, returnTo }: { reason: GatedReason; returnTo: string | null | undefined },
): Promise<Viewer> {
	const viewer = context.get(viewerContext)
	const { env } = context.get(servicesContext)
	const { t } = getInstance(context)
	const json = wantsJson(request)
	const lang = localeFromPath(new URL(request.url).pathname) ?? localeFromPath(returnTo ?? '') ?? DEFAULT_LOCALE
	const back = safeRedirectPath(returnTo, `/${lang}`)
	if (!viewer) {
		if (json) throw data({ error: 'error-not-authenticated' }, { status: 401 })
		throw await redirectWithError(`/${lang}/login`, t(`gate.must-log-in-${reason}`), {
			headers: { 'set-cookie': rememberReturnPath(back, env.APP_URL.startsWith('https:')) },
		})
	}
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
