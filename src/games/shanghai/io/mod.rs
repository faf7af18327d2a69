//! File formats of Shanghai: KMahjongg `.layout` files and files of generated instances.

pub mod instances;
pub mod kmahjongg;
