//! Module `a` of group `names`: types named like those of `b` and
//! `c::inner`, with other fields, layouts and variant orders.

pub mod deep;

/// Fields that rustc reorders (u8, u64, u16).
#[derive(Clone, Copy)]
pub struct Mixed {
    pub x: u8,
    pub y: u64,
    pub z: u16,
}

impl Mixed {
    #[inline(never)]
    pub fn new(w: u64) -> Mixed {
        Mixed { x: w as u8, y: w.rotate_left(7), z: (w >> 40) as u16 }
    }

    #[inline(never)]
    pub fn digest(&self) -> u64 {
        (self.x as u64) ^ self.y.wrapping_mul(3) ^ ((self.z as u64) << 17)
    }
}

impl crate::Score for Mixed {
    #[inline(never)]
    fn score(&self) -> u64 {
        self.y.wrapping_add(self.x as u64)
    }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    X,
    Y(u32),
    Z { v: u16 },
}
