import { useTranslation } from '#app/i18n/translation'
import { Form, Link, NavLink, useLocation } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { useAuthDialog } from '#app/modules/account/auth-dialog'
import { LanguageLinks, LanguageSwitcher } from './language-switcher'
import { LogoMark } from './logo'
import { WalletBalance } from './wallet-balance'

/** `creator`: the viewer has a creator profile (docs/product.md §2.3), so the pages include their earnings. */
export type HeaderAccount = { userId: string; email: string | null; username: string | null; balance?: number | null; creator?: boolean }

/**
 * The site header. Wide screens show everything in one row; a phone shows
 * the brand, the signed-in viewer's balance (or "Sign in" for visitors) and
 * a menu (a `<details>` disclosure, so it opens without JavaScript) with the
 * pages, the languages and the account. Each control is rendered once and
 * hidden from the other layout's screens by CSS alone (the balance is one
 * live subscription, and one element the tests find).
 */
export function SiteHeader({ locale, account }: { locale: Locale; account: HeaderAccount | null }) {
	const { t } = useTranslation()
	const accountLabel = account ? (account.username ?? account.email ?? t('nav.settings')) : null
	return (
		<header className="site-header">
			<Link className="brand" to={`/${locale}`}>
				<LogoMark className="brand__mark" />
				{/* Wraps out of sight when the row is too narrow for it: the mark stays, and the link keeps its name. */}
				<span className="brand__name">{t('app.name')}</span>
			</Link>
			<nav aria-label={t('nav.main')} className="site-nav site-header__wide">
				<PageLinks locale={locale} creator={account?.creator === true} />
			</nav>
			<div className="site-header__end">
				<div className="site-header__wide">
					<LanguageSwitcher locale={locale} />
				</div>
				{account ? (
					<>
						{account.balance != null ? <WalletBalance key={account.userId} locale={locale} balance={account.balance} userId={account.userId} /> : null}
						<Link to={`/${locale}/settings`} className="account-name site-header__wide" title={accountLabel ?? undefined}>
							{accountLabel}
						</Link>
						<SignOut locale={locale} formClassName="site-header__wide" />
					</>
				) : (
					<SignInLink locale={locale} />
				)}
				<div className="site-header__narrow">
					<PhoneMenu locale={locale} accountLabel={accountLabel} creator={account?.creator === true} />
				</div>
			</div>
		</header>
	)
}

function PageLinks({ locale, creator }: { locale: Locale; creator: boolean }) {
	const { t } = useTranslation()
	return (
		<>
			<NavLink to={`/${locale}`} end>
				{t('nav.home')}
			</NavLink>
			<NavLink to={`/${locale}/shop`}>{t('nav.shop')}</NavLink>
			{creator ? <NavLink to={`/${locale}/earnings`}>{t('nav.earnings')}</NavLink> : null}
		</>
	)
}

function SignInLink({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
	const openAuthDialog = useAuthDialog()
	return (
		<Link
			to={`/${locale}/login`}
			className="button button--primary site-header__sign-in"
			onClick={(event) => {
				// With JavaScript the dialog opens in place; without, the page does.
				if (!openAuthDialog) return
				event.preventDefault()
				openAuthDialog()
			}}
		>
			{t('nav.sign-in')}
		</Link>
	)
}

function SignOut({ locale, className = 'button button--ghost', formClassName }: { locale: Locale; className?: string; formClassName?: string }) {
	const { t } = useTranslation()
	return (
		<Form method="post" action={`/${locale}/logout`} className={formClassName}>
			<button type="submit" className={className}>
				{t('auth.sign-out')}
			</button>
		</Form>
	)
}

function PhoneMenu({ locale, accountLabel, creator }: { locale: Locale; accountLabel: string | null; creator: boolean }) {
	const { t } = useTranslation()
	const location = useLocation()
	return (
		// Keyed by the location so a link followed with JavaScript leaves it closed.
		<details className="site-menu" key={location.key}>
			<summary className="site-menu__toggle">
				<svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
					<path d="M4 7h16M4 12h16M4 17h16" />
				</svg>
				<span className="visually-hidden">{t('nav.menu')}</span>
			</summary>
			<div className="site-menu__panel">
				<nav aria-label={t('nav.main')} className="site-menu__links">
					<PageLinks locale={locale} creator={creator} />
					{accountLabel ? (
						<NavLink to={`/${locale}/settings`} className="site-menu__account">
							<span className="site-menu__hint">{t('nav.settings')}</span>
							<span className="site-menu__name">{accountLabel}</span>
						</NavLink>
					) : null}
				</nav>
				<LanguageLinks locale={locale} label={t('nav.language')} className="choice-list" linkClassName="choice" />
				{accountLabel ? <SignOut locale={locale} className="button site-menu__sign-out" /> : null}
			</div>
		</details>
	)
}
