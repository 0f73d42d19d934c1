import { version } from '../../package.json';

/** The build id shared by the client bundle and the worker: the package version (semver). */
export const BUILD_ID: string = version;
