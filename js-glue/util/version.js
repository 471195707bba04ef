// Replaced in the package by build.sh (build_pkg) with the crate version the .wasm reports.
/** @type {string} */
export const PACKAGE_VERSION = 'source';
