// Before anything that builds a Zod schema (see the module).
import { TranslationProvider, useTranslation } from '#app/i18n/translation'
import {
	data,
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	isRouteErrorResponse,
	useLocation,
	useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import { AccountGateDialog } from '#app/components/account-gate'
import { AuthDialogProvider } from '#app/components/auth-dialog'
import { GatedActionProvider, readinessOf } from '#app/components/gated-action'
import { ErrorPage } from '#app/components/error-page'
import { SiteFooter } from '#app/components/site-footer'
import { SiteHeader } from '#app/components/site-header'
import { Toasts } from '#app/components/toasts'
import { servicesContext, viewerContext } from '#app/context.server'
import { publicEnv } from '#app/env.server'
import { getLocale, i18nextMiddleware, messagesVersion } from '#app/i18n/i18next.server'
import { DEFAULT_LOCALE, localeFromPath, type Locale } from '#app/i18n/locales'
import { flashMiddleware, takeToast } from '#app/modules/flash/flash.server'
import { localeCookieMiddleware, viewerMiddleware } from '#app/root.middleware.server'
import appStylesHref from '#app/styles/app.css?url'
import walletStylesHref from '#app/styles/wallet.css?url'
import { hidesAuthDialogs } from '#app/modules/auth/gate'
import { accountGate } from '#app/modules/auth/gate.server'
import { revalidateUnlessAnswered } from '#app/modules/dares/answer'
import { keyEventOf } from '#app/modules/analytics/events'
import { PageViews } from '#app/modules/analytics/page-views'
import { NewBuildOffer } from '#app/modules/builds/new-build-offer'
import { consentConfig, readConsent } from '#app/modules/consent/consent.server'
import { ConsentProvider, NoScriptBanner, SETTINGS_QUERY } from '#app/modules/consent/consent-context'
import { UNDECIDED, type ConsentConfig } from '#app/modules/consent/entries'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'
import { queryAsViewer } from '#app/utils/db.server'
import { sameOriginMiddleware } from '#app/utils/same-origin.server'
import { useNonce } from '#app/security/nonce'

export const middleware: Route.MiddlewareFunction[] = [
	i18nextMiddleware,
	sameOriginMiddleware,
	localeCookieMiddleware,
	viewerMiddleware,
	flashMiddleware,
]

/** Not after a dare form the session page's script sent: its answer carries what changed (app/modules/dares/answer.ts). */
export const shouldRevalidate = revalidateUnlessAnswered

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: appStylesHref },
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'stylesheet', href: walletStylesHref },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
	{ rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
	{ rel: 'manifest', href: '/manifest.webmanifest' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
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
				return { userId: viewer.userId, email: viewer.email, username, gate, balance: await readOwnBalance(tx), totp: viewer.totpEnabled === true }
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

export function Layout({ children }: { children: React.ReactNode }) {
	return (
		<TranslationProvider>
			<Document>{children}</Document>
		</TranslationProvider>
	)
}

function Document({ children }: { children: React.ReactNode }) {
	const rootData = useRouteLoaderData<typeof loader>('root')
	const location = useLocation()
	const locale = rootData?.locale ?? localeFromPath(location.pathname) ?? DEFAULT_LOCALE
	const { t } = useTranslation()
	const nonce = useNonce()
	// The OBS overlay is a browser source on a stream: the page alone, no site around it.
	const bare = location.pathname.split('/')[2] === 'overlay'
	return (
		<html lang={locale} data-messages-version={rootData?.messagesVersion}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#0f0d17" media="(prefers-color-scheme: dark)" />
				<meta name="theme-color" content="#f6f4fb" media="(prefers-color-scheme: light)" />
				<Meta />
				<Links />
			</head>
			<body>
				<a className="skip-link" href="#main">
					{t('nav.skip-to-content')}
				</a>
				<ConsentProvider state={rootData?.consent.state ?? UNDECIDED} config={rootData?.consent.config ?? NO_CONSENT_CONFIG}>
					<AuthDialogProvider lang={locale}>
						<GatedActionProvider readiness={readinessOf(rootData?.account)}>
							{bare ? (
								<main id="main">{children}</main>
							) : (
								<>
									{rootData?.env.DEMO_SITE ? (
										<p className="demo-site-banner" role="note">
											{t('demo-site.banner')}
										</p>
									) : null}
									<SiteHeader locale={locale} account={rootData?.account ?? null} />
									<Toasts toast={rootData?.toast ?? null} />
									<main id="main" tabIndex={-1}>
										{children}
									</main>
									<SiteFooter locale={locale} />
								</>
							)}
							{rootData?.account?.gate && !hidesAuthDialogs(location.pathname) ? (
								<AccountGateDialog gate={rootData.account.gate} locale={locale} termsVersion={rootData.documents.terms_of_service} />
							) : null}
						</GatedActionProvider>
					</AuthDialogProvider>
					{rootData ? <NoScriptBanner showSettings={rootData.consent.showSettings} /> : null}
					<PageViews />
				</ConsentProvider>
				<NewBuildOffer intervalSeconds={rootData?.env.BUILD_CHECK_INTERVAL ?? 0} />
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

/** Error pages rendered without the root loader's data: no analytics, the default period. */
const NO_CONSENT_CONFIG: ConsentConfig = { analytics: false, maxAgeDays: 182, forceModal: false }

export default function App() {
	return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	if (isRouteErrorResponse(error)) {
		return <ErrorPage status={error.status} data={error.data} />
	}
	if (import.meta.env.DEV && error instanceof Error) {
		console.error(error)
	}
	return <ErrorPage status={500} data={null} />
}
