// Before anything that builds a Zod schema (see the module).
import { TranslationProvider, useTranslation } from '#app/i18n/translation'
import { preload } from 'react-dom'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLocation } from 'react-router'
import type { Route } from './+types/root'
import { AccountGateDialog } from '#app/modules/account/account-gate'
import { AuthDialogProvider } from '#app/modules/account/auth-dialog'
import { GatedActionProvider, readinessOf } from '#app/modules/account/gated-action'
import { ErrorPage } from '#app/components/error-page'
import { SiteFooter } from '#app/components/site-footer'
import { SiteHeader } from '#app/components/site-header'
import { Toasts } from '#app/components/toasts'
import { i18nextMiddleware } from '#app/i18n/i18next.server'
import { DEFAULT_LOCALE, localeFromPath, messagesPath } from '#app/i18n/locales'
import { flashMiddleware } from '#app/modules/flash/flash.server'
import { localeCookieMiddleware, viewerMiddleware } from '#app/root.middleware.server'
import { loadRootData } from '#app/root-data.server'
import { useRootData } from '#app/root-data'
import appStylesHref from '#app/styles/app.css?url'
import walletStylesHref from '#app/styles/wallet.css?url'
import { Stylesheets, type StylesheetsHandle } from '#app/styles/stylesheets'
import { hidesAuthDialogs } from '#app/modules/account/gate'
import { revalidateUnlessAnswered } from '#app/modules/dares/answer'
import { PageViews } from '#app/modules/analytics/page-views'
import { NewBuildOffer } from '#app/modules/builds/new-build-offer'
import { ConsentProvider, CookieBanner } from '#app/modules/consent/consent-context'
import { UNDECIDED, type ConsentConfig } from '#app/modules/consent/entries'
import { sameOriginMiddleware } from '#app/utils/same-origin.server'
import { useNonce } from '#app/security/nonce'
import { HydratedProvider } from '#app/utils/use-hydrated'

export const middleware: Route.MiddlewareFunction[] = [
	i18nextMiddleware,
	sameOriginMiddleware,
	localeCookieMiddleware,
	viewerMiddleware,
	flashMiddleware,
]

/** Not after a dare form the session page's script sent: its answer carries what changed (app/modules/dares/answer.ts). */
export const shouldRevalidate = revalidateUnlessAnswered

/** Every page's stylesheets, inline in the server's HTML (app/styles/stylesheets.tsx); a route's own come after. */
export const handle: StylesheetsHandle = { stylesheets: [appStylesHref, walletStylesHref] }

export const links: Route.LinksFunction = () => [
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
	{ rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
	{ rel: 'manifest', href: '/manifest.webmanifest' },
]

/** What every page gets (app/root-data.server.ts); components read it through useRootData (app/root-data.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
	return loadRootData({ request, context })
}

export function Layout({ children }: { children: React.ReactNode }) {
	return (
		<TranslationProvider>
			<HydratedProvider>
				<Document>{children}</Document>
			</HydratedProvider>
		</TranslationProvider>
	)
}

function Document({ children }: { children: React.ReactNode }) {
	const rootData = useRootData()
	const location = useLocation()
	const locale = rootData?.locale ?? localeFromPath(location.pathname) ?? DEFAULT_LOCALE
	const { t } = useTranslation()
	const nonce = useNonce()
	// The messages the browser fetches before it hydrates (entry.client.tsx): asked for with the page, not after its scripts.
	const messages = messagesPath(locale, rootData?.messagesVersion ?? '')
	preload(messages, { as: 'fetch', crossOrigin: 'anonymous' })
	// The OBS overlay is a browser source on a stream: the page alone, no site around it.
	const bare = location.pathname.split('/')[2] === 'overlay'
	return (
		<html lang={locale} data-messages={messages}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#0f0d17" media="(prefers-color-scheme: dark)" />
				<meta name="theme-color" content="#f6f4fb" media="(prefers-color-scheme: light)" />
				<Meta />
				<Stylesheets />
				<Links />
			</head>
			<body>
				<a className="skip-link" href="#main">
					{t('nav.skip-to-content')}
				</a>
				<ConsentProvider state={rootData?.consent.state ?? UNDECIDED} config={rootData?.consent.config ?? NO_CONSENT_CONFIG}>
					{/* First in the page, though it shows at the bottom: parsed and painted with the first frame (a first visit's largest text). */}
					{rootData ? <CookieBanner showSettings={rootData.consent.showSettings} /> : null}
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
