using RpcCompare.Cli;

return await RpccCommands.Create(Console.Out, Console.Error).Parse(args).InvokeAsync();
