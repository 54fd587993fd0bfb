using System.CommandLine;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Client;

namespace RpcCompare.Cli;

/// <summary>
/// The options that say which server a command talks to (binding, address or endpoints file, TLS
/// trust), shared by call and health, and the client factory they make.
/// </summary>
internal sealed class ServerTarget
{
    private readonly Option<string> _binding;
    private readonly Option<string?> _address = new("--address", "-a") { Description = "The binding's address: a socket path, URL or, for inproc, a data root." };
    private readonly Option<FileInfo?> _endpoints = new("--endpoints", "-e")
    {
        Description = "Endpoints file a host wrote (--endpoints-file); the address, and the certificate to trust when the host uses TLS, are read there.",
    };

    private readonly Option<string?> _thumbprint = new("--tls-thumbprint")
    {
        Description = "Trust the server's certificate by its SHA-256 thumbprint (the host logs it); with --address, turns TLS on for wcf-nettcp and fast-tcp.",
    };

    private readonly Option<FileInfo?> _clientCertificate = new("--tls-client-certificate")
    {
        Description = "Mutual TLS: the certificate to present, PEM (key in it or --tls-client-key) or .pfx, for a host started with --tls-client-thumbprints or --tls-client-ca.",
    };

    private readonly Option<FileInfo?> _clientKey = new("--tls-client-key") { Description = "The PEM private key of --tls-client-certificate." };

    private readonly Option<bool> _tls = new("--tls") { Description = "wcf-nettcp or fast-tcp with --address: use TLS, trusting certificates this machine trusts (https:// addresses use TLS anyway)." };

    public ServerTarget(string bindingDescription)
    {
        _binding = new Option<string>("--binding", "-b") { Description = bindingDescription, Required = true };
    }

    public IEnumerable<Option> Options => [_binding, _address, _endpoints, _thumbprint, _tls, _clientCertificate, _clientKey];

    public string Binding(ParseResult parse) => parse.GetValue(_binding)!;

    /// <summary>The address and a client factory trusting the server as asked; null (with the reason written to <paramref name="error"/>) when neither can be had.</summary>
    public (string Address, RpcClientFactory Factory)? Resolve(ParseResult parse, TextWriter error)
    {
        var binding = Binding(parse);
        ClientTlsOptions? tls = null;
        string? address = parse.GetValue(_address);
        if (string.IsNullOrEmpty(address))
        {
            var host = ReadEndpoints(parse.GetValue(_endpoints), error);
            if (host is null)
            {
                return null;
            }

            if (!host.Addresses.TryGetValue(binding, out address))
            {
                error.WriteLine($"error: the host does not serve '{binding}'; it serves {string.Join(", ", host.Addresses.Keys)}.");
                return null;
            }

            tls = host.ClientTls;
        }

        if (parse.GetValue(_thumbprint) is { } thumbprint)
        {
            try
            {
                tls = new ClientTlsOptions { ServerCertificateThumbprint = CertificateThumbprint.Normalize(thumbprint, "--tls-thumbprint") };
            }
            catch (ArgumentException exception)
            {
                error.WriteLine($"error: {exception.Message}");
                return null;
            }
        }
        else if (parse.GetValue(_tls))
        {
            tls ??= new ClientTlsOptions();
        }

        if (parse.GetValue(_clientCertificate) is { } certificateFile)
        {
            try
            {
                tls ??= new ClientTlsOptions();
                tls.ClientCertificate = CertificateFile.Load(certificateFile.FullName, parse.GetValue(_clientKey)?.FullName, null, "--tls-client-certificate", "--tls-client-key");
            }
            catch (InvalidOperationException exception)
            {
                error.WriteLine($"error: {exception.Message}");
                return null;
            }
        }

        return (address, RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = tls }));
    }

    private static HostEndpoints? ReadEndpoints(FileInfo? endpoints, TextWriter error)
    {
        if (endpoints is null)
        {
            error.WriteLine("error: give --address, or --endpoints with the file the host wrote (--endpoints-file).");
            return null;
        }

        if (!endpoints.Exists)
        {
            error.WriteLine($"error: endpoints file '{endpoints.FullName}' does not exist. Is the host running with --endpoints-file?");
            return null;
        }

        return EndpointsFile.Read(endpoints.FullName);
    }
}
