import { data, type RouterContextProvider } from 'react-router'
import { servicesContext, viewerContext } from '#app/context.server'
import { publicEnv } from '#app/env.server'
import { getLocale, messagesVersion } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { accountGate } from '#app/modules/account/gate.server'
import { keyEventOf } from '#app/modules/analytics/events'
import { consentConfig, readConsent } from '#app/modules/consent/consent.server'
import { SETTINGS_QUERY } from '#app/modules/consent/consent-context'
import { takeToast } from '#app/modules/flash/flash.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { hasCreatorProfile } from '#app/modules/payouts/creator.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'
import { queryAsViewer } from '#app/utils/db.server'

/**
 * What every page gets: the root route's loader (app/root.tsx calls it).
 * Components read it through useRootData() (app/root-data.ts), which takes
 * its type from this function, so no component imports app/root.tsx.
 */
export async function loadRootData({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
	const locale = getLocale(context) as Locale
	const { env } = context.get(servicesContext)
	const { toast, headers } = await takeToast(request, context)
	const viewer = context.get(viewerContext)
	// The versions users accept are the legal documents' own (app/modules/legal).
	const documents = currentDocumentVersions()
	const account = viewer
		? await queryAsViewer(context, async (tx) => {
				const { username, gate } = await accountGate(tx, documents.terms_of_service, documents.creator_agreement)
				// `totp`: the delete-account confirmation asks for a code instead of the password.
				// `creator`: the header links their earnings (docs/product.md §14).
				return {
					userId: viewer.userId,
					email: viewer.email,
					username,
					gate,
					balance: await readOwnBalance(tx),
					totp: viewer.totpEnabled === true,
					creator: await hasCreatorProfile(tx),
				}
			})
		: null
	return data(
		{
			locale,
			account,
			oauthProviders: context.get(servicesContext).platform.accounts.oauthProviders,
			messagesVersion: messagesVersion[locale],
			documents,
			toast: toast
				? {
						type: toast.type,
						message: toast.message,
						description: toast.description ?? null,
						// The one action a flash toast may carry (see Toasts).
						action: 'action' in toast && toast.action === 'delete-account' ? ('delete-account' as const) : null,
						// A dare's key event, sent once the toast shows (only with consent: analytics/events).
						event: keyEventOf('event' in toast ? toast.event : null),
					}
				: null,
			env: publicEnv(env),
			// Which optional cookie entries the visitor allowed (app/modules/consent).
			consent: {
				state: readConsent(request, env),
				config: consentConfig(env),
				showSettings: new URL(request.url).searchParams.has(SETTINGS_QUERY),
			},
		},
		{ headers },
	)
}
