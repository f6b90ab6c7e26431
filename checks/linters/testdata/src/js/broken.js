const a = ;
