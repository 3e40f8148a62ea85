// Menu icons by MUI icon name (tabs.icon). Imported one by one to keep the bundle small.

import type { SvgIconComponent } from '@mui/icons-material';
import AccountTree from '@mui/icons-material/AccountTree';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Apartment from '@mui/icons-material/Apartment';
import Badge from '@mui/icons-material/Badge';
import Build from '@mui/icons-material/Build';
import Business from '@mui/icons-material/Business';
import CarRepair from '@mui/icons-material/CarRepair';
import Category from '@mui/icons-material/Category';
import Circle from '@mui/icons-material/CircleOutlined';
import CompareArrows from '@mui/icons-material/CompareArrows';
import ContactMail from '@mui/icons-material/ContactMail';
import Dashboard from '@mui/icons-material/Dashboard';
import DirectionsCar from '@mui/icons-material/DirectionsCar';
import Flag from '@mui/icons-material/Flag';
import Folder from '@mui/icons-material/Folder';
import FolderShared from '@mui/icons-material/FolderShared';
import Garage from '@mui/icons-material/Garage';
import Handshake from '@mui/icons-material/Handshake';
import History from '@mui/icons-material/History';
import Insights from '@mui/icons-material/Insights';
import Landscape from '@mui/icons-material/Landscape';
import ListAlt from '@mui/icons-material/ListAlt';
import LocalOffer from '@mui/icons-material/LocalOffer';
import LocalShipping from '@mui/icons-material/LocalShipping';
import MapIcon from '@mui/icons-material/Map';
import People from '@mui/icons-material/People';
import Place from '@mui/icons-material/Place';
import PointOfSale from '@mui/icons-material/PointOfSale';
import Public from '@mui/icons-material/Public';
import QueryStats from '@mui/icons-material/QueryStats';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Security from '@mui/icons-material/Security';
import SentimentSatisfied from '@mui/icons-material/SentimentSatisfied';
import Settings from '@mui/icons-material/Settings';
import Store from '@mui/icons-material/Store';
import Storefront from '@mui/icons-material/Storefront';
import TableChart from '@mui/icons-material/TableChart';
import Terrain from '@mui/icons-material/Terrain';
import Today from '@mui/icons-material/Today';

const ICONS: Record<string, SvgIconComponent> = {
  AccountTree,
  AdminPanelSettings,
  Apartment,
  Badge,
  Build,
  Business,
  CarRepair,
  Category,
  CompareArrows,
  ContactMail,
  Dashboard,
  DirectionsCar,
  Flag,
  Folder,
  FolderShared,
  Garage,
  Handshake,
  History,
  Insights,
  Landscape,
  ListAlt,
  LocalOffer,
  LocalShipping,
  Map: MapIcon,
  People,
  Place,
  PointOfSale,
  Public,
  QueryStats,
  ReceiptLong,
  Security,
  SentimentSatisfied,
  Settings,
  Store,
  Storefront,
  TableChart,
  Terrain,
  Today,
};

export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = (name && ICONS[name]) || Circle;
  return <Icon fontSize="small" />;
}
