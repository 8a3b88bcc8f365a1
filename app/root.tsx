import { useTranslation } from 'react-i18next'
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
import { getToast } from 'remix-toast'
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
import { localeCookieMiddleware, viewerMiddleware } from '#app/root.middleware.server'
import appStylesHref from '#app/styles/app.css?url'
import { hidesAuthDialogs } from '#app/modules/auth/gate'
import { accountGate } from '#app/modules/auth/gate.server'
import { queryAsViewer } from '#app/utils/db.server'
import { sameOriginMiddleware } from '#app/utils/same-origin.server'

export const middleware: Route.MiddlewareFunction[] = [
	i18nextMiddleware,
	sameOriginMiddleware,
	localeCookieMiddleware,
	viewerMiddleware,
]

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: appStylesHref },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const locale = getLocale(context) as Locale
	const { env } = context.get(servicesContext)
	const { toast, headers } = await getToast(request)
	const viewer = context.get(viewerContext)
	const account = viewer
		? await queryAsViewer(context, async (tx) => {
				const { username, gate } = await accountGate(tx, env.TERMS_VERSION, env.CREATOR_AGREEMENT_VERSION)
				// `totp`: the delete-account confirmation asks for a code instead of the password.
				return { email: viewer.email, username, gate, totp: viewer.totpEnabled === true }
			})
		: null
	return data(
		{
			locale,
			account,
			oauthProviders: context.get(servicesContext).platform.accounts.oauthProviders,
			messagesVersion: messagesVersion[locale],
			toast: toast
				? {
						type: toast.type,
						message: toast.message,
						description: toast.description ?? null,
						// The one action a flash toast may carry (see Toasts).
						action: toast.action === 'delete-account' ? ('delete-account' as const) : null,
					}
				: null,
			env: publicEnv(env),
		},
		{ headers },
	)
}

export function Layout({ children }: { children: React.ReactNode }) {
	const rootData = useRouteLoaderData<typeof loader>('root')
	const location = useLocation()
	const locale = rootData?.locale ?? localeFromPath(location.pathname) ?? DEFAULT_LOCALE
	const { t } = useTranslation()
	return (
		<html lang={locale} data-messages-version={rootData?.messagesVersion}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="description" content={t('app.description')} />
				<meta name="theme-color" content="#0f0d17" />
				<Meta />
				<Links />
			</head>
			<body>
				<a className="skip-link" href="#main">
					{t('nav.skip-to-content')}
				</a>
				<AuthDialogProvider lang={locale}>
					<GatedActionProvider readiness={readinessOf(rootData?.account)}>
						<SiteHeader locale={locale} account={rootData?.account ?? null} />
						<main id="main" tabIndex={-1}>
							{children}
						</main>
						<SiteFooter locale={locale} />
						{rootData?.account?.gate && !hidesAuthDialogs(location.pathname) ? (
							<AccountGateDialog gate={rootData.account.gate} locale={locale} termsVersion={rootData.env.TERMS_VERSION} />
						) : null}
					</GatedActionProvider>
				</AuthDialogProvider>
				<Toasts toast={rootData?.toast ?? null} />
				<ScrollRestoration />
				<Scripts />
			</body>
		</html>
	)
}

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
