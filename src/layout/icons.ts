import type { SvgIconComponent } from '@mui/icons-material';
import ChatIcon from '@mui/icons-material/Chat';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DescriptionIcon from '@mui/icons-material/Description';
import HubIcon from '@mui/icons-material/Hub';
import ImageIcon from '@mui/icons-material/Image';
import KeyIcon from '@mui/icons-material/Key';
import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import QueryStatsIcon from '@mui/icons-material/QueryStats';
import RedeemIcon from '@mui/icons-material/Redeem';
import SettingsIcon from '@mui/icons-material/Settings';
import SportsEsportsIcon from '@mui/icons-material/SportsEsports';
import TaskIcon from '@mui/icons-material/Task';
import WalletIcon from '@mui/icons-material/AccountBalanceWallet';

/** The icon of each sidebar item, by item key. */
export const MENU_ICONS: Record<string, SvgIconComponent> = {
  playground: SportsEsportsIcon,
  chat: ChatIcon,
  dashboard: DashboardIcon,
  token: KeyIcon,
  token_new: KeyIcon,
  log: DescriptionIcon,
  log_new: DescriptionIcon,
  midjourney: ImageIcon,
  task: TaskIcon,
  channel: HubIcon,
  channel_new: HubIcon,
  channel_statistics: QueryStatsIcon,
  redemption: RedeemIcon,
  user: PeopleIcon,
  user_new: PeopleIcon,
  setting: SettingsIcon,
  topup: WalletIcon,
  personal: PersonIcon,
};
