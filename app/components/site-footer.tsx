import { useTranslation } from '#app/i18n/translation'
import { Link } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { CookieSettingsControl } from '#app/modules/consent/consent-context'

export function SiteFooter({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
	return (
		<footer className="site-footer">
			<p>{t('footer.made-for')}</p>
			<nav aria-label={t('footer.legal')}>
				<Link to={`/${locale}/terms`}>{t('footer.terms')}</Link>
				<Link to={`/${locale}/privacy`}>{t('footer.privacy')}</Link>
				<Link to={`/${locale}/imprint`}>{t('footer.imprint')}</Link>
				<Link to={`/${locale}/creator-agreement`}>{t('footer.creator-agreement')}</Link>
				<CookieSettingsControl />
			</nav>
		</footer>
	)
}
