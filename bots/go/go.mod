module aboure/bots/go

go 1.19
