module example.com/scconfig

go 1.22
