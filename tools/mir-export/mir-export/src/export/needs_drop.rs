//! Drops of ADTs that rustc built no drop glue shim for. A library's
//! generic body drops its values (digest's `FixedOutput::finalize_into(mut
//! self, ..)` drops `self`); instantiated, the type may have no drop glue
//! at all (`CoreWrapper<CtVariableCoreWrapper<Sha256VarCore, U32>>`: no
//! `Drop` impl, fields of integers and arrays of them), so the kernel
//! crate's build dumped no `drop_in_place` shim for it (drops.rs leaves
//! the `drop` terminator). Whether dropping it does anything is rustc's
//! `core::mem::needs_drop::<T>()`, asked through the count probe
//! (`[(); needs_drop::<T>() as usize]` has 0 or 1 elements): when rustc
//! says false, the type is `drop_noop` and oxidec drops it as nothing.
//! A type rustc says needs dropping, or that the probe cannot name or
//! evaluate, stays as it was (oxidec's error names the drop).

use super::probed_consts::CountProbe;
use super::Exporter;

impl<'a> Exporter<'a> {
    /// Marks `drop_noop` each glueless dropped ADT that rustc says needs
    /// no drop. A failed probe marks none.
    pub(super) fn fill_needs_drop(&mut self, probe: &mut CountProbe) {
        let mut asked: Vec<(usize, String)> = Vec::new();
        for text in &self.glueless_drops {
            let Ok(ty) = crate::mirparse::parser::parse_str(text, |p| p.ty()) else { continue };
            let Some(i) = self.types.lookup(&ty) else { continue };
            let Some(info) = self.types.get(i).adt.as_ref() else { continue };
            if info.drop_noop || ty.is_unnameable() || text.contains("{closure") {
                continue;
            }
            let name = crate::types::probe_name(&ty, self.input.extern_crates);
            asked.push((i, needs_drop_probe_name(&name)));
        }
        if asked.is_empty() {
            return;
        }
        let names: Vec<String> = asked.iter().map(|a| a.1.clone()).collect();
        let Ok(counts) = probe(&names) else { return };
        for ((i, _), count) in asked.iter().zip(counts) {
            if let (Ok(0), Some(info)) = (count, self.types.entries[*i].adt.as_mut()) {
                info.drop_noop = true;
            }
        }
    }
}

/// The count probe's array type whose length is whether rustc's
/// `needs_drop` holds for the type named `name` (as the crate root spells
/// it): 0 or 1.
fn needs_drop_probe_name(name: &str) -> String {
    format!("[(); ::core::mem::needs_drop::<{name}>() as usize]")
}
