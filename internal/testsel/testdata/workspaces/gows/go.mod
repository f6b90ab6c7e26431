module example.com/gows

go 1.22
