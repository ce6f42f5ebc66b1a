//! Module `a::deep` of group `names`: a third `Mixed`, an enum.

#[derive(Clone, Copy)]
pub enum Mixed {
    Small(u8),
    Big(u64, u32),
    None,
}

impl Mixed {
    #[inline(never)]
    pub fn new(w: u64) -> Mixed {
        match w % 3 {
            0 => Mixed::Small(w as u8),
            1 => Mixed::Big(w, (w >> 32) as u32),
            _ => Mixed::None,
        }
    }

    #[inline(never)]
    pub fn digest(&self) -> u64 {
        match *self {
            Mixed::Small(s) => s as u64 + 11,
            Mixed::Big(a, b) => a ^ ((b as u64) << 3),
            Mixed::None => 5,
        }
    }
}

impl super::super::Score for Mixed {
    #[inline(never)]
    fn score(&self) -> u64 {
        self.digest().rotate_left(9)
    }
}
