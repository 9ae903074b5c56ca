import LumenCLI

LumenCommand.main()
