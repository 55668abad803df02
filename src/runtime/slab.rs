//! A growable slab: the tables behind handles (a slot's index is what a handle encodes).

pub struct Slab<T> {
    slots: Vec<Option<T>>,
    free: Vec<usize>,
    /// Slots below this are never handed out (predefined objects' indices).
    reserved: usize,
}

impl<T> Slab<T> {
    pub const fn new(reserved: usize) -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            reserved,
        }
    }
    pub fn insert(&mut self, v: T) -> usize {
        if let Some(i) = self.free.pop() {
            self.slots[i] = Some(v);
            return i;
        }
        while self.slots.len() < self.reserved {
            self.slots.push(None);
        }
        self.slots.push(Some(v));
        self.slots.len() - 1
    }
    pub fn get(&self, i: usize) -> Option<&T> {
        self.slots.get(i)?.as_ref()
    }
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.slots.get_mut(i)?.as_mut()
    }
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten()
    }
    pub fn remove(&mut self, i: usize) -> Option<T> {
        let v = self.slots.get_mut(i)?.take()?;
        self.free.push(i);
        Some(v)
    }
}
