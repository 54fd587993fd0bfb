using RpcCompare.Load;
using Spectre.Console;

return await LoadCommand.Create(AnsiConsole.Console).Parse(args).InvokeAsync();
